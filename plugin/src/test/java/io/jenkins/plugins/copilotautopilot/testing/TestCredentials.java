package io.jenkins.plugins.copilotautopilot.testing;

import com.cloudbees.plugins.credentials.CredentialsProvider;
import com.cloudbees.plugins.credentials.CredentialsScope;
import com.cloudbees.plugins.credentials.domains.Domain;
import hudson.util.Secret;
import java.io.IOException;
import org.jenkinsci.plugins.plaincredentials.impl.StringCredentialsImpl;
import org.jvnet.hudson.test.JenkinsRule;

/** Secret text credentials in the global store, as the tests' builds use them. */
public final class TestCredentials {
    /** The GitHub token of the {@code copilot-token} credential. */
    public static final String TOKEN = "github_pat_pluginTestToken_0123456789";
    public static final String TOKEN_ID = "copilot-token";

    private TestCredentials() {
    }

    /** Adds the {@code copilot-token} credential. */
    public static void addToken(JenkinsRule j) throws IOException {
        addSecretText(j, TOKEN_ID, TOKEN);
    }

    public static void addSecretText(JenkinsRule j, String id, String secret) throws IOException {
        CredentialsProvider.lookupStores(j.jenkins).iterator().next().addCredentials(Domain.global(),
                new StringCredentialsImpl(CredentialsScope.GLOBAL, id, id, Secret.fromString(secret)));
    }
}
