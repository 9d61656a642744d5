package io.jenkins.plugins.copilotautopilot.core.runner;

import io.jenkins.plugins.copilotautopilot.core.kept.KeptSessionState;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import io.jenkins.plugins.copilotautopilot.core.plan.OwnCredentials;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.plan.Setting;
import io.jenkins.plugins.copilotautopilot.core.prepare.InlineOrFile;
import io.jenkins.plugins.copilotautopilot.core.prepare.Lookups;
import io.jenkins.plugins.copilotautopilot.core.prepare.Unusable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * What the runner looks up for a session: files on its disk (the task also on standard input), secrets in its
 * environment only (it has no credentials), a session kept under {@code --state-dir}; no console, no trusted revision.
 */
final class RunnerLookups implements Lookups {
    private final Map<String, String> env;
    private final InputStream stdin;
    private final Path kept;

    /** @param kept the file of the session kept under {@code --session}, or null */
    RunnerLookups(Map<String, String> env, InputStream stdin, Path kept) {
        this.env = env;
        this.stdin = stdin;
        this.kept = kept;
    }

    @Override
    public InlineOrFile.Files files(Setting<String> setting, boolean trustedRevision) {
        return new LocalFiles(setting == SessionSettings.PROMPT_FILE ? stdin : null);
    }

    @Override
    public String credential(String id, String parameter) {
        return null;
    }

    /** The provider's key is {@code COPILOT_PROVIDER_API_KEY}'s. */
    @Override
    public String providerApiKey(String credentialsId) {
        return env.get(OwnCredentials.PROVIDER_API_KEY_VARIABLE);
    }

    /** The state kept under the session's name, made fit for this run, or null when none is kept yet. */
    @Override
    public byte[] keptState(String name) throws Unusable {
        if (!Files.isRegularFile(kept)) {
            return null;
        }
        try {
            return KeptSessionState.sanitize(Files.readAllBytes(kept), SecretMasker.none());
        } catch (KeptSessionState.UnusableStateException e) {
            throw new Unusable("--session " + name + ": " + kept + " cannot be continued (" + e.getMessage()
                    + "); delete it to start a new session");
        } catch (IOException e) {
            throw new Unusable("--session " + name + ": cannot read " + kept + " (" + RunnerChecks.reason(e) + ")");
        }
    }

    /** JSON only, as the CLI takes it. */
    @Override
    public String mcpServersJson(String text) {
        return text;
    }

    @Override
    public Console console() {
        return null;
    }
}
