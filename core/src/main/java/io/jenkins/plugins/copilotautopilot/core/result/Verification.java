package io.jenkins.plugins.copilotautopilot.core.result;

import java.util.Map;

/**
 * The acceptance check ({@code verify}) as the session ran it.
 *
 * @param verified whether it passed last, or null when there is none (or the session ended before it judged)
 * @param rounds   how often it ran
 * @param exitCode its last exit code, or null
 */
public record Verification(Boolean verified, int rounds, Integer exitCode) {
    public static final Verification NONE = new Verification(null, 0, null);

    /** Its entries in the result's map (the Pipeline step's return value, the journal's closing record). */
    public void putInto(Map<String, Object> map) {
        map.put("verified", verified);
        map.put("verifyRounds", rounds);
        map.put("verifyExitCode", exitCode);
    }
}
