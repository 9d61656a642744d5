package io.jenkins.plugins.copilotautopilot.testing;

import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import hudson.model.Run;
import org.jvnet.hudson.test.JenkinsRule;

/** A build's Copilot sessions as the REST API ({@code api/json}) shows them to a web client's user. */
public final class RestSessions {
    private RestSessions() {
    }

    /** The {@code sessions} array of the build's Copilot action; fails when the build has none. */
    public static JsonNode of(JenkinsRule.WebClient client, Run<?, ?> build) throws Exception {
        String json = client.goTo(build.getUrl() + "api/json", "application/json").getWebResponse().getContentAsString();
        for (JsonNode action : new ObjectMapper().readTree(json).path("actions")) {
            if (CopilotAutopilotRunAction.class.getName().equals(action.path("_class").asText())) {
                return action.path("sessions");
            }
        }
        throw new AssertionError("no copilot-autopilot action in " + json);
    }
}
