package io.jenkins.plugins.copilotautopilot.core.prepare;

import java.util.List;
import java.util.Set;

/**
 * What the preparation of a session tells its user, in the order it happened; the caller words it (the plugin prints
 * each as one line of the build's log, the runner says nothing).
 */
public sealed interface Note {
    /** Settings taken from the administrator's defaults, in form order. */
    record FromDefaults(Set<String> settings) implements Note {
    }

    /** The task is the text of a file, of the workspace or of the trusted revision. */
    record TaskFromFile(String file, int chars, boolean trustedRevision) implements Note {
    }

    /** The session is restricted for an untrusted change request; what was taken away, by setting. */
    record Restricted(String changeRequest, List<String> removed) implements Note {
    }

    /** A variable {@code toolSecrets} hands to tools is not set in the build. */
    record ToolSecretUnset(String variable) implements Note {
    }

    /** The task ends with the console's last lines; the plugin's own lines left out. */
    record BuildLogIncluded(int lines, int leftOutLines) implements Note {
    }

    /** The GitHub token comes from here. */
    record TokenSource(String source) implements Note {
    }

    /** The build is traced, so the CLI's spans are kept under it ({@code otel} not set either way). */
    record Traced() implements Note {
    }
}
