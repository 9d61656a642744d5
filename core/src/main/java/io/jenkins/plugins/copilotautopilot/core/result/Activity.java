package io.jenkins.plugins.copilotautopilot.core.result;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the agent did: turns, tool calls and how they ended, and the CLI's nudges.
 *
 * @param deniedToolCalls       tool calls refused by the permission policy
 * @param policyDeniedToolCalls of those, refused after the organisation's policy overrode the tool permissions
 * @param deniedFetches         of those, refused for a URL
 * @param deniedUrls            the distinct URLs refused, at most 20 (masked)
 * @param nudges                autopilot continuations
 */
public record Activity(int turns, int toolCalls, int failedToolCalls, int deniedToolCalls, int policyDeniedToolCalls,
                       int deniedFetches, List<String> deniedUrls, int nudges) {
    public static final Activity NONE = new Activity(0, 0, 0, 0, 0, 0, List.of(), 0);

    public Activity {
        deniedUrls = deniedUrls == null ? List.of() : List.copyOf(deniedUrls);
    }

    /** Its entries in the result's map (the Pipeline step's return value, the journal's closing record). */
    public void putInto(Map<String, Object> map) {
        map.put("turns", turns);
        map.put("toolCalls", toolCalls);
        map.put("failedToolCalls", failedToolCalls);
        map.put("deniedToolCalls", deniedToolCalls);
        map.put("policyDeniedToolCalls", policyDeniedToolCalls);
        map.put("deniedFetches", deniedFetches);
        map.put("deniedUrls", new ArrayList<>(deniedUrls));
        map.put("nudges", nudges);
    }
}
