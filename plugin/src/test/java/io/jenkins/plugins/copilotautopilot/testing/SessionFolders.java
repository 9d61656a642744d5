package io.jenkins.plugins.copilotautopilot.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.jvnet.hudson.test.JenkinsRule;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;

/** What a session leaves in its workspace's {@code @tmp}: nothing once it has ended. */
public final class SessionFolders {
    private SessionFolders() {
    }

    /** The launch files (with the secrets) and the control folder (with the CLI's unmasked state) are gone. */
    public static void assertNoSessionFolderLeft(JenkinsRule j, WorkflowRun b) throws Exception {
        assertThat(left(j, b), is(empty()));
    }

    /** The session folders left in the build's workspace's {@code @tmp} on the built-in node. */
    public static List<String> left(JenkinsRule j, WorkflowRun b) {
        Path tmpOfWorkspace = Path.of(j.jenkins.getWorkspaceFor(b.getParent()).getRemote() + "@tmp");
        if (!Files.isDirectory(tmpOfWorkspace)) {
            return List.of();
        }
        try (var files = Files.list(tmpOfWorkspace)) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("copilot-autopilot-")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
