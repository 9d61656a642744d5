package io.jenkins.plugins.copilotautopilot.prepare;

import io.jenkins.plugins.copilotautopilot.follow.KeptSessions;

import hudson.FilePath;
import hudson.model.Run;
import hudson.model.TaskListener;
import io.jenkins.plugins.copilotautopilot.core.plan.Setting;
import io.jenkins.plugins.copilotautopilot.core.prepare.InlineOrFile;
import io.jenkins.plugins.copilotautopilot.core.prepare.Lookups;
import io.jenkins.plugins.copilotautopilot.core.prepare.Unusable;
import java.io.IOException;
import java.util.List;

/**
 * What a session's preparation looks up for a build: the files of its workspace on the agent (of the trusted revision
 * for an untrusted change request), the Secret text credentials it may use, the sessions its job kept, its console.
 */
final class BuildLookups implements Lookups {
    private final Run<?, ?> run;
    private final FilePath workspace;
    private final TaskListener listener;
    private final ChangeRequestTrust.Untrusted untrusted;

    /** @param untrusted the untrusted change request the build is of, whose trusted revision files are read from; or null */
    BuildLookups(Run<?, ?> run, FilePath workspace, TaskListener listener, ChangeRequestTrust.Untrusted untrusted) {
        this.run = run;
        this.workspace = workspace;
        this.listener = listener;
        this.untrusted = untrusted;
    }

    @Override
    public InlineOrFile.Files files(Setting<String> setting, boolean trustedRevision) {
        FileWording words = FileWording.of(setting, workspace.getRemote());
        if (trustedRevision) {
            return ChangeRequestTrust.trustedFiles(untrusted, words);
        }
        String node = SessionInputs.displayNode(workspace);
        return new WorkspaceFiles(workspace, name -> words.reading(name, node));
    }

    @Override
    public String credential(String id, String parameter) throws Unusable {
        return StringCredentialLookup.secret(run, id, parameter);
    }

    @Override
    public String providerApiKey(String credentialsId) throws Unusable {
        return credentialsId == null ? null : StringCredentialLookup.secret(run, credentialsId, "providerCredentialsId");
    }

    @Override
    public byte[] keptState(String name) throws IOException {
        return KeptSessions.load(run, name, listener);
    }

    @Override
    public String mcpServersJson(String text) throws Unusable {
        return McpServersSetting.asJson(text);
    }

    @Override
    public Console console() {
        return new Console() {
            @Override
            public List<String> lastLines(int count) throws IOException {
                return run.getLog(count);
            }

            @Override
            public String name() {
                return "Jenkins build " + run.getFullDisplayName();
            }
        };
    }
}
