package io.jenkins.plugins.copilotautopilot.agent;

import hudson.FilePath;
import java.io.IOException;
import org.jenkinsci.plugins.durabletask.Controller;
import org.jenkinsci.plugins.durabletask.FileMonitoringTask;

/**
 * Where durable-task keeps the files of a task it launched ({@link org.jenkinsci.plugins.durabletask.BourneShellScript}
 * for a session): its control folder, its log (the CLI's events) and its exit status. Their accessors are public
 * on {@code FileMonitoringController}, a type that only subclasses of {@link FileMonitoringTask} can name; this class
 * is one for that reason alone and is never instantiated.
 */
final class DurableTaskFiles extends FileMonitoringTask {
    private DurableTaskFiles() {
    }

    /** The task's control folder, which the launch script takes for the session's. */
    static FilePath controlFolder(Controller controller, FilePath taskWorkspace) throws IOException, InterruptedException {
        return monitoring(controller).controlDir(taskWorkspace);
    }

    /** The task's output: the launch script's standard output, the CLI's events. */
    static FilePath log(Controller controller, FilePath taskWorkspace) throws IOException, InterruptedException {
        return monitoring(controller).getLogFile(taskWorkspace);
    }

    /** The task's exit status, once it has ended. */
    static FilePath result(Controller controller, FilePath taskWorkspace) throws IOException, InterruptedException {
        return monitoring(controller).getResultFile(taskWorkspace);
    }

    private static FileMonitoringController monitoring(Controller controller) throws IOException {
        if (controller instanceof FileMonitoringController monitoring) {
            return monitoring;
        }
        throw new IOException("not a file-monitoring durable task: " + controller.getClass().getName());
    }
}
