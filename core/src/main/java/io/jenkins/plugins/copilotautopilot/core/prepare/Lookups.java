package io.jenkins.plugins.copilotautopilot.core.prepare;

import io.jenkins.plugins.copilotautopilot.core.plan.Setting;
import java.io.IOException;
import java.util.List;

/**
 * What a session's preparation looks up where the session runs, one question each. The Jenkins plugin answers them
 * for a build (its workspace on an agent, the trusted revision of a change request, its credentials, its kept
 * sessions, its console), the runner for its own process. Nothing here decides anything about the session.
 */
public interface Lookups extends Credentials {
    /** Where the files {@code setting} names are read: the workspace, or the trusted revision of an untrusted change request. */
    InlineOrFile.Files files(Setting<String> setting, boolean trustedRevision);

    /** The own model provider's API key: the credential's ({@code providerCredentialsId}), or null for none. */
    String providerApiKey(String credentialsId) throws Unusable;

    /** The state of the session kept under {@code name} by an earlier run, made fit to continue, or null (none kept yet). */
    byte[] keptState(String name) throws Unusable, IOException, InterruptedException;

    /** {@code mcpServers}' text as JSON: JSON as it is, another form the caller takes (YAML) converted. */
    String mcpServersJson(String text) throws Unusable;

    /** The build's console for {@code includeBuildLog}, or null where there is none. */
    Console console();

    /** A build's console so far. */
    interface Console {
        /** Its last lines, at most {@code count}. */
        List<String> lastLines(int count) throws IOException;

        /** What it is, for the agent: {@code Jenkins build folder/job #12}. */
        String name();
    }
}
