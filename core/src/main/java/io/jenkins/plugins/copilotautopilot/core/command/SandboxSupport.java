package io.jenkins.plugins.copilotautopilot.core.command;

/**
 * What the CLI's {@code --sandbox} needs of the machine that runs it ({@code copilot help sandbox}, CLI 1.0.102): on
 * Linux bubblewrap ({@code bwrap} 0.5.0+) that can create namespaces, and for the private network every sandbox gets,
 * {@code slirp4netns}, util-linux's {@code unshare} and {@code nsenter}, iproute2's {@code ip}, {@code iptables}, {@code ip6tables} and their
 * {@code -restore} tools, and read/write access to {@code /dev/net/tun}; on macOS {@code sandbox-exec}. Without it every
 * sandboxed shell command fails while the agent goes on, so the launch script looks first ({@code sandbox_problem} in
 * {@code launch.sh}, on the machine and in the container that runs the CLI) and ends the launch with a short word that
 * {@link #explain} turns into the one line a user gets.
 */
public final class SandboxSupport {
    /** The one line a host without the sandbox gets; {@code %s} is what is missing. */
    static final String MISSING = "sandbox is on, but this machine cannot run the Copilot CLI's sandbox: %s."
            + " Install it, run the step on a node that has it, or turn sandbox off.";
    /** The one line for a machine that has the sandbox's programs but does not let it work; {@code %s} is why. */
    static final String REFUSED = "sandbox is on, but this machine cannot run the Copilot CLI's sandbox: %s."
            + " Allow it, run the step on a node where it works, or turn sandbox off.";

    private SandboxSupport() {
    }

    /** The sentence for the launch script's word about the sandbox; any other launch error as it is. */
    public static String explain(String launchError) {
        if (launchError == null || !launchError.startsWith("sandbox-")) {
            return launchError;
        }
        String line = launchError.strip();
        int space = line.indexOf(' ');
        String word = space < 0 ? line : line.substring(0, space);
        String rest = space < 0 ? "" : line.substring(space + 1).strip();
        return switch (word) {
            case "sandbox-missing" -> String.format(MISSING, "it needs " + String.join(", ", rest.split(" +"))
                    + " on the PATH (on Linux: bubblewrap 0.5.0+, slirp4netns, util-linux 2.35+, iproute2 and iptables)");
            case "sandbox-tun" -> String.format(REFUSED, "its private network needs read and write access to /dev/net/tun,"
                    + " which this user does not have");
            case "sandbox-namespaces" -> String.format(REFUSED, "bubblewrap cannot create namespaces here (" + rest + "); inside a"
                    + " container it needs --security-opt seccomp=unconfined --security-opt systempaths=unconfined");
            case "sandbox-unsupported" -> String.format(MISSING, "the CLI sandboxes commands on Linux and macOS only"
                    + (rest.isEmpty() ? "" : ", this is " + rest));
            default -> launchError;
        };
    }
}
