package io.jenkins.plugins.copilotautopilot.core.command;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Whether a host has what the CLI's {@code --sandbox} needs: {@code bwrap} on Linux, {@code sandbox-exec} on macOS
 * (the CLI's own probe, {@code copilot help sandbox}). Without it every sandboxed shell command of the session would
 * fail, so a step that asks for the sandbox is refused before the CLI starts. The launch script makes the same check
 * on a build agent ({@link #SHELL_CHECK}).
 */
public final class SandboxSupport {
    /** The one line a host without the sandbox gets; {@code %s} is what is missing. */
    static final String MISSING = "sandbox is on, but this machine cannot run the Copilot CLI's sandbox: %s."
            + " Install it, run the step on a node that has it, or turn sandbox off.";

    /** POSIX shell lines that end the launch with {@code fail 126 "…"} when the sandbox is asked for and missing. */
    public static final String SHELL_CHECK = String.join("\n",
            "case \" $* \" in *' --sandbox '*)",
            "  case $(uname -s) in",
            "    Linux) command -v bwrap >/dev/null 2>&1 || fail 126 \"" + String.format(MISSING, "it needs bubblewrap (bwrap 0.5.0+) on the PATH").replace("\"", "\\\"") + "\" ;;",
            "    Darwin) command -v sandbox-exec >/dev/null 2>&1 || fail 126 \"" + String.format(MISSING, "sandbox-exec is not on the PATH").replace("\"", "\\\"") + "\" ;;",
            "    *) fail 126 \"" + String.format(MISSING, "the CLI sandboxes commands on Linux and macOS only").replace("\"", "\\\"") + "\" ;;",
            "  esac ;;",
            "esac");

    private static final Pattern PATH_SEPARATOR = Pattern.compile(Pattern.quote(java.io.File.pathSeparator));

    private SandboxSupport() {
    }

    /**
     * Why this host cannot run the sandbox, or null when it can.
     *
     * @param osName the {@code os.name} of the host
     * @param environment its environment (for {@code PATH})
     */
    public static String problem(String osName, Map<String, String> environment) {
        String os = osName == null ? "" : osName.toLowerCase(Locale.ROOT);
        if (os.contains("linux")) {
            return onPath("bwrap", environment) ? null : String.format(MISSING, "it needs bubblewrap (bwrap 0.5.0+) on the PATH");
        }
        if (os.contains("mac") || os.contains("darwin")) {
            return onPath("sandbox-exec", environment) ? null : String.format(MISSING, "sandbox-exec is not on the PATH");
        }
        return String.format(MISSING, "the CLI sandboxes commands on Linux and macOS only");
    }

    private static boolean onPath(String program, Map<String, String> environment) {
        String path = environment.get("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : PATH_SEPARATOR.split(path)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }
}
