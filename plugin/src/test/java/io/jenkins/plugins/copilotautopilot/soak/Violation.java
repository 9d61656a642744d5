package io.jenkins.plugins.copilotautopilot.soak;

/**
 * An invariant that did not hold: which ({@code invariant}), of which build (or "the run"), the last fault that
 * touched it before (or "none"), and the evidence (the lines, files or processes that break it).
 */
record Violation(String invariant, String build, String faultBefore, String evidence) {
    @Override
    public String toString() {
        return invariant + " — " + build + " — fault before: " + faultBefore + " — " + evidence;
    }
}
