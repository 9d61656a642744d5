package io.jenkins.plugins.copilotautopilot.agent;

import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.command.CliLocator;
import io.jenkins.plugins.copilotautopilot.core.command.CliNotFoundException;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import jenkins.security.MasterToSlaveCallable;

/**
 * Finds the native Copilot CLI binary on the agent (paths and files are the agent's), and makes the session's working
 * directory there if need be, in one round trip. Only JDK types cross the channel back: classes of the bundled engine
 * jar are not on the remoting class filter's allow list.
 */
public final class LocateCliCallable extends MasterToSlaveCallable<String[], RuntimeException> {
    private static final long serialVersionUID = 1L;
    static final String HOW_TO_SET = "copilotPath (or installation)";

    /** What {@link #workDirProblem} says of a working directory that is a file. */
    public static final String NOT_A_DIRECTORY = "not a directory";

    private final String configured;
    private final String pathVariable;
    private final String workDir;

    /** @param workDir the session's working directory, made if it is not there (as {@code sh} makes the workspace) */
    public LocateCliCallable(String configured, String pathVariable, String workDir) {
        this.configured = configured;
        this.pathVariable = pathVariable;
        this.workDir = workDir;
    }

    /**
     * @return {path, version (may be null)}, or {null, null, message} when there is no CLI; or {null, null, null,
     * problem} when the working directory is a file ({@link #NOT_A_DIRECTORY}) or cannot be made (why)
     */
    @Override
    public String[] call() {
        File dir = new File(workDir);
        if (!dir.isDirectory()) {
            if (dir.exists()) {
                return new String[] {null, null, null, NOT_A_DIRECTORY};
            }
            try {
                Files.createDirectories(dir.toPath());
            } catch (IOException e) {
                return new String[] {null, null, null, "could not create " + workDir + ": " + e};
            }
        }
        try {
            CliExecutable cli = new CliLocator().locate(configured, pathVariable, HOW_TO_SET);
            return new String[] {cli.path(), cli.version()};
        } catch (CliNotFoundException e) {
            return new String[] {null, null, e.getMessage()};
        }
    }

    /** What is wrong with the working directory, or null. */
    public static String workDirProblem(String[] answer) {
        return answer.length > 3 ? answer[3] : null;
    }

    /** The agent's answer as the engine's value, or the message of why there is none. */
    public static CliExecutable executable(String[] answer) throws CliNotFoundException {
        if (answer[0] == null) {
            throw new CliNotFoundException(answer.length > 2 ? answer[2] : "The Copilot CLI was not found.");
        }
        return new CliExecutable(answer[0], answer[1]);
    }
}
