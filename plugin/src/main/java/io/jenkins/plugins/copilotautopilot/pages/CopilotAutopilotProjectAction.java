package io.jenkins.plugins.copilotautopilot.pages;

import io.jenkins.plugins.copilotautopilot.Messages;

import hudson.model.Action;
import hudson.model.Job;
import hudson.model.Run;
import io.jenkins.plugins.copilotautopilot.core.report.TrendSvg;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.kohsuke.stapler.StaplerRequest2;
import org.kohsuke.stapler.StaplerResponse2;

/**
 * On a job's page: the outcome of the last build that ran a Copilot session, and a trend of turns, duration,
 * AI credits (where reported), premium requests and tokens over recent builds (a server-side SVG at {@code copilot-autopilot-trend/trend}). Added by
 * {@link CopilotAutopilotRunAction#getProjectActions()} (or {@link CopilotAutopilotTrendCarrier}) of the job's last
 * successful build; both look at no more than the last {@value #BUILDS} completed builds.
 */
public final class CopilotAutopilotProjectAction implements Action {
    static final int BUILDS = 20;

    private final Job<?, ?> job;

    CopilotAutopilotProjectAction(Job<?, ?> job) {
        this.job = job;
    }

    public Job<?, ?> getJob() {
        return job;
    }

    /** The Copilot sessions of the last completed build that ran any, among the last {@value #BUILDS}; or null. */
    public CopilotAutopilotRunAction getLastSessions() {
        int seen = 0;
        for (Run<?, ?> run = job.getLastCompletedBuild(); run != null && seen < BUILDS; run = run.getPreviousCompletedBuild()) {
            seen++;
            CopilotAutopilotRunAction action = run.getAction(CopilotAutopilotRunAction.class);
            if (action != null && action.hasSessions()) {
                return action;
            }
        }
        return null;
    }

    /** Recent builds with Copilot sessions, oldest first. */
    List<TrendSvg.Point> points() {
        List<TrendSvg.Point> points = new ArrayList<>();
        int seen = 0;
        for (Run<?, ?> run = job.getLastCompletedBuild(); run != null && seen < BUILDS; run = run.getPreviousCompletedBuild()) {
            seen++;
            CopilotAutopilotRunAction action = run.getAction(CopilotAutopilotRunAction.class);
            if (action == null || action.getSessions().isEmpty()) {
                continue;
            }
            int turns = 0;
            long duration = 0;
            Double premium = null;
            Long tokens = null;
            Double credits = null; // unknown unless a session reported some: never a 0 for "none reported"
            for (SessionRecord s : action.getSessions()) {
                ModelUsageRecord usage = s.getUsage();
                if (usage.getAiCredits() != null) {
                    credits = (credits == null ? 0 : credits) + usage.getAiCredits();
                }
                if (usage.tokens() != null) {
                    tokens = (tokens == null ? 0 : tokens) + usage.tokens();
                }
                turns += s.getActivity().getTurns();
                duration += s.getEnding().getDurationMillis();
                if (usage.getPremiumRequests() != null) {
                    premium = (premium == null ? 0 : premium) + usage.getPremiumRequests();
                }
            }
            points.add(new TrendSvg.Point(run.getDisplayName(), action.getWorstOutcome(), turns, duration, premium, tokens, credits));
        }
        Collections.reverse(points);
        return points;
    }

    /** {@code trend}: the SVG trend chart. */
    public void doTrend(StaplerRequest2 req, StaplerResponse2 rsp) throws IOException {
        byte[] svg = TrendSvg.render(points()).getBytes(StandardCharsets.UTF_8);
        rsp.setHeader("X-Content-Type-Options", "nosniff");
        rsp.setHeader("Content-Security-Policy", "default-src 'none'; sandbox");
        rsp.setContentType("image/svg+xml;charset=UTF-8");
        rsp.setContentLength(svg.length);
        rsp.getOutputStream().write(svg);
    }

    @Override
    public String getIconFileName() {
        return null;
    }

    @Override
    public String getDisplayName() {
        return Messages.CopilotAutopilotProjectAction_DisplayName();
    }

    @Override
    public String getUrlName() {
        return "copilot-autopilot-trend";
    }
}
