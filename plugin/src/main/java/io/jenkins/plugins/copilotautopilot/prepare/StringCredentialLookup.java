package io.jenkins.plugins.copilotautopilot.prepare;

import io.jenkins.plugins.copilotautopilot.Messages;

import com.cloudbees.plugins.credentials.CredentialsProvider;
import hudson.AbortException;
import hudson.model.Run;
import io.jenkins.plugins.copilotautopilot.core.prepare.Unusable;
import java.util.List;
import org.jenkinsci.plugins.plaincredentials.StringCredentials;

/** Reads a Secret text credential for a build, as the user who started it may (and records the use). */
final class StringCredentialLookup {
    private StringCredentialLookup() {
    }

    /** @param parameter the setting it is for, as the step names it (one line names it when the build may use no such credential) */
    static String secret(Run<?, ?> run, String credentialsId, String parameter) throws Unusable {
        StringCredentials credentials = CredentialsProvider.findCredentialById(credentialsId, StringCredentials.class, run, List.of());
        if (credentials == null) {
            throw new Unusable(Messages.StringCredentialLookup_NotFound(parameter, credentialsId));
        }
        CredentialsProvider.track(run, credentials);
        return credentials.getSecret().getPlainText();
    }

    /** As {@link #secret}, for a session followed again after a restart: a credential gone ends it, with one line. */
    static String again(Run<?, ?> run, String credentialsId, String parameter) throws AbortException {
        try {
            return secret(run, credentialsId, parameter);
        } catch (Unusable e) {
            throw new AbortException(Messages.SessionInputs_InvalidOptions(e.getMessage()));
        }
    }
}
