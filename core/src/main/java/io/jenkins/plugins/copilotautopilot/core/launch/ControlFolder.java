package io.jenkins.plugins.copilotautopilot.core.launch;

/**
 * The folder one session runs from, on the machine that runs the CLI. It holds what the launch script reads
 * (the task, the arguments, the working directory, the variables), what the CLI writes (its stdout and
 * stderr, its exit code) and the CLI's private {@code COPILOT_HOME}. The follower reads the output files from
 * any position, so a session can be followed again after the follower was gone (a controller restart).
 */
public final class ControlFolder {
    /** The task, UTF-8; the CLI reads it from standard input. */
    public static final String PROMPT = "prompt.txt";
    /** The executable (or empty for the PATH) then one argument per line; arguments never hold a line break. */
    public static final String ARGUMENTS = "arguments";
    /** The agent's working directory, one line. */
    public static final String WORKING_DIRECTORY = "workdir";
    /** One file per environment variable (name = file name); read and removed by the launch script. */
    public static final String ENVIRONMENT = "env";
    /** The CLI's standard output: one JSON event per line. */
    public static final String OUTPUT = "output.jsonl";
    /** The CLI's standard error, and the launch script's own errors. */
    public static final String STDERR = "stderr.txt";
    /** The CLI's exit code, written when it has ended. */
    public static final String EXIT_CODE = "exit-code";
    /** Why the launch script could not start the CLI (one line), when it could not. */
    public static final String LAUNCH_ERROR = "launch-error";
    /** The CLI's process id, while it runs. */
    public static final String CLI_PID = "cli.pid";
    /** What the agent changed, when the working directory is in a git work tree: {@code git diff-tree -z --name-status}. */
    public static final String CHANGES_STATUS = "changes.status";
    /** ... {@code --numstat}. */
    public static final String CHANGES_NUMSTAT = "changes.numstat";
    /** ... the patch, cut after a megabyte. */
    public static final String CHANGES_PATCH = "changes.patch";
    /** The launch script. */
    public static final String SCRIPT = "launch.sh";
    /** The CLI's private state folder. */
    public static final String COPILOT_HOME = io.jenkins.plugins.copilotautopilot.core.command.CliCommand.COPILOT_HOME_FOLDER;

    private ControlFolder() {
    }

    /** {@code folder/name} for a folder path of the machine that runs the CLI (always a Unix path). */
    public static String child(String folder, String name) {
        return folder.endsWith("/") ? folder + name : folder + "/" + name;
    }
}
