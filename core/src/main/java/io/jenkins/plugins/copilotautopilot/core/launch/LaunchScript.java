package io.jenkins.plugins.copilotautopilot.core.launch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The POSIX shell script that starts the CLI: {@code launch.sh} beside this class, a real script (checked by
 * {@code shellcheck} in the build). It holds one piece of data, the path of the folder with the launch files
 * (single-quoted, put in by {@link #render}); the task, the arguments, the working directory, the variables (secrets
 * among them) and the settings ({@link LaunchFiles}) are read from files there as data, so no user text is ever parsed
 * by a shell, however the script itself is started (durable-task in Jenkins, a container's {@code exec}, a decorator
 * that quotes arguments, the runner).
 *
 * <p>The script's own folder is the session's control folder ({@link ControlFolder}). It does what must go on while
 * nobody follows the session: a watchdog beside the CLI writes a heartbeat every second and stops what runs (SIGTERM,
 * a grace period, SIGKILL, and on Linux every process carrying the run's marker) when asked to
 * ({@link ControlFolder#STOP}), when the control folder is deleted, or at the wall-clock limit plus a grace period; it
 * runs the acceptance check and resumes the CLI as the follower tells it ({@link ControlFolder#ANSWER}); it records
 * what the agent changed and packs a session to keep. When durable-task runs it, the script sheds durable-task's
 * cookie (the CLI, the check and their tools carry it), so that a stop through durable-task leaves the script to note
 * how the CLI ended and what it changed.
 */
public final class LaunchScript {
    /** How long past the wall-clock limit the watchdog waits for the follower to stop the CLI. */
    public static final int WATCHDOG_GRACE_SECONDS = 30;
    /** Untracked files (not ignored) recorded in a snapshot at most; with more, untracked files are left out. */
    public static final int MAX_UNTRACKED_FILES = 10_000;
    /** Their total size at most, in kilobytes; beyond, untracked files are left out. */
    public static final int MAX_UNTRACKED_KILOBYTES = 100 * 1024;
    /** How long processes get between SIGTERM and SIGKILL when the watchdog stops them. */
    static final int KILL_GRACE_SECONDS = 3;
    /** Lines of a verify command's output shown in the log (its last ones). */
    public static final int VERIFY_LINES = 60;
    /** Characters per such line at most. */
    public static final int VERIFY_LINE_CHARS = 1000;
    /**
     * How long the script waits for the follower to say what comes after the CLI or the check: a follower that never
     * comes back (a runner killed with SIGKILL) leaves a session that ends by itself.
     */
    static final int AWAIT_SECONDS = 15 * 60;
    /** The resource's line that {@link #render} fills in. */
    private static final String LAUNCH_FOLDER_LINE = "in=''\n";
    private static final String SOURCE = load();
    private static final String APPROVAL_HOOK = read(ControlFolder.APPROVAL_HOOK);
    /** How long past the approval timeout the hook waits for a decision on its own (nobody follows the session). */
    public static final int APPROVAL_GRACE_SECONDS = 60;

    private LaunchScript() {
    }

    /** The script for launch files in {@code launchFolder}; outputs go to the folder the script is run from. */
    public static String render(String launchFolder) {
        return SOURCE.replace(LAUNCH_FOLDER_LINE, "in=" + quote(launchFolder) + "\n");
    }

    /** The script as it is kept, before {@link #render} (for checks of the script itself). */
    public static String source() {
        return SOURCE;
    }

    /** The approval hook ({@code approve.sh} beside this class, a real script too). */
    public static String approvalHook() {
        return APPROVAL_HOOK;
    }

    private static String load() {
        String text = read(ControlFolder.SCRIPT);
        if (!text.contains("\n" + LAUNCH_FOLDER_LINE)) {
            throw new IllegalStateException("launch.sh has no line " + LAUNCH_FOLDER_LINE.strip());
        }
        return text;
    }

    private static String read(String name) {
        try (InputStream in = LaunchScript.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing beside " + LaunchScript.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code 'text'} for a POSIX shell, with every {@code '} written as {@code '\''}. */
    static String quote(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }
}
