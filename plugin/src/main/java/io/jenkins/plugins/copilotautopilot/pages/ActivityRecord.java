package io.jenkins.plugins.copilotautopilot.pages;

import io.jenkins.plugins.copilotautopilot.core.result.Activity;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.kohsuke.stapler.export.Exported;
import org.kohsuke.stapler.export.ExportedBean;

/**
 * What the agent did, as a build keeps it in {@code build.xml} ({@link Activity}): turns, tool calls and how they
 * ended, the URLs the policy refused (cut), the CLI's nudges.
 */
@ExportedBean(defaultVisibility = 4)
public final class ActivityRecord implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int turns;
    private final int toolCalls;
    private final int failedToolCalls;
    private final int deniedToolCalls;
    /** Denied tool calls after the organisation's policy overrode the step's permissions. */
    private final int policyDeniedToolCalls;
    /** Tool calls the policy refused for a URL. */
    private final int deniedFetches;
    /** The URLs refused (from the agent's commands: agent text, like the summary); null when none were kept. */
    private final ArrayList<String> deniedUrls;
    private final int nudges;

    ActivityRecord(Activity a) {
        this(a.turns(), a.toolCalls(), a.failedToolCalls(), a.deniedToolCalls(), a.policyDeniedToolCalls(), a.deniedFetches(),
                new ArrayList<>(a.deniedUrls().stream().map(RecordTexts::cut).toList()), a.nudges());
    }

    /** As a version before the parts saved it ({@link FlatSessionRecord}): what that form lacks is null or 0. */
    static ActivityRecord flat(int turns, int toolCalls, int failedToolCalls, int deniedToolCalls, int policyDeniedToolCalls,
                               int deniedFetches, ArrayList<String> deniedUrls, int nudges) {
        return new ActivityRecord(turns, toolCalls, failedToolCalls, deniedToolCalls, policyDeniedToolCalls, deniedFetches, deniedUrls,
                nudges);
    }

    private ActivityRecord(int turns, int toolCalls, int failedToolCalls, int deniedToolCalls, int policyDeniedToolCalls, int deniedFetches,
                           ArrayList<String> deniedUrls, int nudges) {
        this.turns = turns;
        this.toolCalls = toolCalls;
        this.failedToolCalls = failedToolCalls;
        this.deniedToolCalls = deniedToolCalls;
        this.policyDeniedToolCalls = policyDeniedToolCalls;
        this.deniedFetches = deniedFetches;
        this.deniedUrls = deniedUrls;
        this.nudges = nudges;
    }

    /** Without what the agent wrote: the URLs it tried. */
    ActivityRecord withoutAgentText() {
        return new ActivityRecord(turns, toolCalls, failedToolCalls, deniedToolCalls, policyDeniedToolCalls, deniedFetches, null, nudges);
    }

    @Exported
    public int getTurns() {
        return turns;
    }

    @Exported
    public int getToolCalls() {
        return toolCalls;
    }

    @Exported
    public int getFailedToolCalls() {
        return failedToolCalls;
    }

    @Exported
    public int getDeniedToolCalls() {
        return deniedToolCalls;
    }

    @Exported
    public int getPolicyDeniedToolCalls() {
        return policyDeniedToolCalls;
    }

    @Exported
    public int getDeniedFetches() {
        return deniedFetches;
    }

    /** The URLs the policy refused, or an empty list (none, an older record, or a reader who may not see agent text). */
    @Exported
    public List<String> getDeniedUrls() {
        return deniedUrls == null ? List.of() : Collections.unmodifiableList(deniedUrls);
    }

    /** {@link #getDeniedUrls()} on one line. */
    public String getDeniedUrlsText() {
        return String.join(" ", getDeniedUrls());
    }

    @Exported
    public int getNudges() {
        return nudges;
    }
}
