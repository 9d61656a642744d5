package io.jenkins.plugins.copilotautopilot.session;

import io.jenkins.plugins.copilotautopilot.Messages;

import com.cloudbees.plugins.credentials.CredentialsProvider;
import hudson.AbortException;
import hudson.model.Run;
import java.util.List;
import org.jenkinsci.plugins.plaincredentials.StringCredentials;

/** Reads a Secret text credential for a build, as the user who started it may (and records the use). */
final class StringCredentialLookup {
    private StringCredentialLookup() {
    }

    static String secret(Run<?, ?> run, String credentialsId, String parameter) throws AbortException {
        StringCredentials credentials = CredentialsProvider.findCredentialById(credentialsId, StringCredentials.class, run, List.of());
        if (credentials == null) {
            throw new AbortException(Messages.StringCredentialLookup_NotFound(parameter, credentialsId));
        }
        CredentialsProvider.track(run, credentials);
        return credentials.getSecret().getPlainText();
    }
}
