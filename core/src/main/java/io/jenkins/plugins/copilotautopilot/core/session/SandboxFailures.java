package io.jenkins.plugins.copilotautopilot.core.session;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;

/**
 * A shell command the CLI's sandbox could not start. CLI 1.0.102 reports it as a "successful" tool call whose result
 * begins {@code <error: GenericFailure, ...>} (measured on Linux: without slirp4netns, "Cannot start sandboxed command:
 * Bubblewrap cannot start sandboxed commands ... because its private network is unavailable"; as a user without access
 * to /dev/net/tun, "backend_error: Bubblewrap: slirp4netns startup ... exited during startup"), and the agent goes on
 * without any shell. The session then failed: the tracker records it as its first error.
 */
final class SandboxFailures {
    static final String ERROR_TYPE = "sandbox";
    private static final String MARK = "<error: GenericFailure, ";
    private static final int MAX = 300;

    private SandboxFailures() {
    }

    /** What the sandbox said when a sandboxed call could not start, or null. */
    static String describe(JsonNode data, String output) {
        if (output == null || !data.path("sandboxed").asBoolean(false) || !output.startsWith(MARK)) {
            return null;
        }
        String said = output.substring(MARK.length());
        int end = said.indexOf('>');
        said = end < 0 ? said : said.substring(0, end);
        return "the CLI's sandbox could not start a shell command: " + Texts.truncate(Texts.oneLine(said.strip()), MAX);
    }
}
