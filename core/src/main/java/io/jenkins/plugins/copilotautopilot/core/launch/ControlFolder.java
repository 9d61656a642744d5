package io.jenkins.plugins.copilotautopilot.core.launch;

/**
 * The files of one session, on the machine that runs the CLI. The launch files (the task, the arguments, the
 * working directory, the variables, the launch settings) are read by the launch script and deleted; they may be
 * in the control folder itself (the runner) or in a folder of their own (Jenkins, where durable-task makes the
 * control folder when it starts the script). The control folder, the launch script's own, holds what the CLI and
 * the script write (the CLI's errors, its exit code, the heartbeat, what the agent changed) and the CLI's private
 * {@code COPILOT_HOME}. The follower reads the output files from any position, so a session can be followed again
 * after the follower was gone (a controller restart).
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
    /**
     * {@code name=value} lines for the launch script (numbers and flags, never user text): {@code watchdog} (seconds; 0
     * for none), {@code describe} (1: say which CLI runs), {@code changes} (0: do not record what the agent changed),
     * {@code keep} (1: pack the session's state into {@link #KEPT_SESSION} at the end), {@code sandbox} (1: check that the
     * machine can run the CLI's sandbox), and the script's limits ({@code kill_grace}, {@code await},
     * {@code untracked_files}, {@code untracked_kb}, {@code patch_bytes}, {@code verify_lines}, {@code verify_chars}).
     */
    public static final String LAUNCH_SETTINGS = "launch";
    /** The CLI's standard output, one JSON event per line, where the runner puts it (durable-task has its own log file). */
    public static final String OUTPUT = "output.jsonl";
    /** The CLI's standard error, and the launch script's own errors. */
    public static final String STDERR = "stderr.txt";
    /** The CLI's exit code, written when it has ended. */
    public static final String EXIT_CODE = "exit-code";
    /** Why the launch script could not start the CLI (one line), when it could not. */
    public static final String LAUNCH_ERROR = "launch-error";
    /** The CLI's process id, while it runs. */
    public static final String CLI_PID = "cli.pid";
    /** Seconds since the CLI started, rewritten every second by the watchdog while the CLI runs. */
    public static final String HEARTBEAT = "heartbeat";
    /** Written by whoever wants the session stopped: the watchdog stops the CLI within a second. */
    public static final String STOP = "stop";
    /** Why the watchdog stopped the CLI: {@code stop}, {@code limit} or {@code gone} (the control folder was deleted). */
    public static final String STOPPED = "stopped";
    /**
     * The event the launch script prints before the CLI's own when the follower did not know which CLI would run
     * (one looked up inside a container): {@code data.path} and {@code data.version} (empty when unknown).
     */
    public static final String CLI_EVENT = io.jenkins.plugins.copilotautopilot.core.events.CliEvent.CLI_FOUND;
    /**
     * The event the launch script prints when it left untracked files out of a snapshot of the work tree (too many,
     * or too large): {@code data.snapshot} ({@code before} or {@code after}), {@code data.files}, {@code data.kilobytes}
     * (0 when not measured), {@code data.maxFiles}, {@code data.maxKilobytes}.
     */
    public static final String CHANGES_LEFT_OUT_EVENT = io.jenkins.plugins.copilotautopilot.core.events.CliEvent.CHANGES_LEFT_OUT;
    /** What the agent changed, when the working directory is in a git work tree: {@code git diff-tree -z --name-status}. */
    public static final String CHANGES_STATUS = "changes.status";
    /** ... {@code --numstat}. */
    public static final String CHANGES_NUMSTAT = "changes.numstat";
    /** ... the patch, cut after a megabyte. */
    public static final String CHANGES_PATCH = "changes.patch";
    /**
     * The MCP servers' configuration (resolved: it may hold secrets), when there is one; the launch script keeps it in
     * the control folder and passes it with {@code --additional-mcp-config}.
     */
    public static final String MCP_CONFIG = "mcp-config.json";
    /**
     * A session's state kept between builds ({@code tar.gz} of its {@code session-state/ID} folder): in the launch
     * folder, the one to resume; in the control folder, written at the end when asked ({@code keep=1}).
     */
    public static final String KEPT_SESSION = "kept-session.tgz";
    /** How many bytes of a kept session's event record are the earlier runs' (written when one is resumed). */
    public static final String KEPT_SESSION_OFFSET = "kept-session.offset";
    /** The acceptance check's shell command, when there is one. */
    public static final String VERIFY = "verify";
    /** The launch script's event before a verify command runs: {@code data.round} (1, 2, ...). */
    public static final String VERIFY_STARTED_EVENT = io.jenkins.plugins.copilotautopilot.core.events.CliEvent.VERIFY_STARTED;
    /** One line of its output (the last ones, masked): {@code data.text}. */
    public static final String VERIFY_OUTPUT_EVENT = io.jenkins.plugins.copilotautopilot.core.events.CliEvent.VERIFY_OUTPUT;
    /** After it: {@code data.round}, {@code data.exitCode}. */
    public static final String VERIFY_FINISHED_EVENT = io.jenkins.plugins.copilotautopilot.core.events.CliEvent.VERIFY_FINISHED;
    /**
     * {@code answer-N}: what the launch script does after its wait {@code N} ({@code check}, {@code resume} or
     * {@code done}), written by the follower ({@link LaunchFiles#writeAnswer}).
     */
    public static final String ANSWER = "answer-";
    /** {@code answer-N.prompt}: the agent's next task, when the answer is {@code resume}; written before the answer. */
    public static final String ANSWER_PROMPT_SUFFIX = ".prompt";
    /** The launch script. */
    public static final String SCRIPT = "launch.sh";
    /** The CLI's OpenTelemetry spans and metrics ({@code otel}), written by its file exporter: JSON lines. */
    public static final String SPANS = "otel.jsonl";
    /** The approval hook ({@code approveTools}): the CLI's {@code preToolUse} hook, kept in the control folder. */
    public static final String APPROVAL_HOOK = "approve.sh";
    /** Its rules, one per line: the rule's index, the tool name's and the input's expressions ({@code ApprovalRules}). */
    public static final String APPROVAL_RULES = "approval-rules";
    /** The CLI's hook configuration for it; the launch script moves it into the CLI's private home. */
    public static final String APPROVAL_HOOK_CONFIG = "approval-hook.json";
    /**
     * Where the hook and the follower meet: {@code ID.request} (the rule's index, then the CLI's JSON), the follower's
     * {@code ID.decision} (the hook's answer to the CLI), and {@code ID.done} once the hook has answered.
     */
    public static final String APPROVALS = "approvals";
    public static final String APPROVAL_REQUEST_SUFFIX = ".request";
    public static final String APPROVAL_DECISION_SUFFIX = ".decision";
    public static final String APPROVAL_DONE_SUFFIX = ".done";
    /** The CLI's private state folder. */
    public static final String COPILOT_HOME = io.jenkins.plugins.copilotautopilot.core.command.CliCommand.COPILOT_HOME_FOLDER;

    private ControlFolder() {
    }

    /** {@code folder/name} for a folder path of the machine that runs the CLI (always a Unix path). */
    public static String child(String folder, String name) {
        return folder.endsWith("/") ? folder + name : folder + "/" + name;
    }
}
