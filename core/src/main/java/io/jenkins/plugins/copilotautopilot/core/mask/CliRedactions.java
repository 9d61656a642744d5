package io.jenkins.plugins.copilotautopilot.core.mask;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Undoes the Copilot CLI's own redaction where it garbles the events. The CLI replaces every occurrence of a secret it
 * knows (the provider's key, the GitHub token, the {@code --secret-env-vars}) with {@value #CLI_MASK} in all it
 * prints, JSON keys and event types included: with a one-letter key {@code k} it prints
 * {@code "type":"session.tas******_complete"}, and a follower that read that would miss the completion. A secret that
 * short is no credential: when exactly one secret shorter than {@value #SHORT} characters is known, each
 * {@value #CLI_MASK} in a line is read back as that secret before the line is parsed, so that the outcome is decided on
 * what the CLI meant; {@link SecretMasker} masks it again where text leaves. Longer secrets are left as the CLI wrote
 * them: they do not occur in the CLI's own words.
 */
public final class CliRedactions {
    /** What the CLI writes in place of a secret. */
    public static final String CLI_MASK = "******";
    /** Secrets shorter than this may occur in the CLI's own words (event types, keys, tool names) and garble them. */
    public static final int SHORT = 8;

    private static final CliRedactions NONE = new CliRedactions(null);

    private final String restoredAs;

    private CliRedactions(String restoredAs) {
        this.restoredAs = restoredAs;
    }

    /** For the secrets the CLI is given: restores the one short secret, if there is exactly one. */
    public static CliRedactions of(Collection<String> secretValues) {
        Set<String> shortOnes = new LinkedHashSet<>();
        for (String value : secretValues) {
            if (isShort(value)) {
                shortOnes.add(value);
            }
        }
        return shortOnes.size() == 1 ? new CliRedactions(shortOnes.iterator().next()) : NONE;
    }

    public static CliRedactions none() {
        return NONE;
    }

    /** Whether the CLI's redaction of {@code value} may garble its own words. */
    public static boolean isShort(String value) {
        return value != null && !value.isEmpty() && value.length() < SHORT;
    }

    /** The line as the CLI would have written it without its redaction of the short secret; the same instance otherwise. */
    public String restore(String line) {
        if (restoredAs == null || line.indexOf(CLI_MASK) < 0) {
            return line;
        }
        return line.replace(CLI_MASK, restoredAs);
    }
}
