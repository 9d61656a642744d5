package io.jenkins.plugins.copilotautopilot.checks;

import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.pages.Outcomes;

import hudson.model.Run;
import hudson.model.TaskListener;
import io.jenkins.plugins.checks.api.ChecksConclusion;
import io.jenkins.plugins.checks.api.ChecksDetails;
import io.jenkins.plugins.checks.api.ChecksAnnotation;
import io.jenkins.plugins.checks.api.ChecksOutput;
import io.jenkins.plugins.copilotautopilot.core.output.Finding;
import java.util.ArrayList;
import java.util.List;
import io.jenkins.plugins.checks.api.ChecksPublisherFactory;
import io.jenkins.plugins.checks.api.ChecksStatus;
import io.jenkins.plugins.copilotautopilot.core.changes.ChangedFile;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.outcome.BuildVerdict;
import io.jenkins.plugins.copilotautopilot.core.text.Durations;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import jenkins.model.Jenkins;

/** A session as a check, through checks-api (only loaded when that plugin is installed: see {@link SessionChecks}). */
final class ChecksPublication {
    private static final int MAX_TITLE = 200;
    private static final int MAX_FILES = 50;
    /** GitHub takes at most 64 KB per annotation message. */
    private static final int MAX_ANNOTATION = 4_000;

    private ChecksPublication() {
    }

    static void started(Run<?, ?> run, SessionPlan plan, long startedAtMillis, TaskListener listener) {
        ChecksDetails details = base(run, plan)
                .withStatus(ChecksStatus.IN_PROGRESS)
                .withStartedAt(utc(startedAtMillis))
                .withOutput(new ChecksOutput.ChecksOutputBuilder()
                        .withTitle(Messages.ChecksPublication_Running())
                        .withSummary(Messages.ChecksPublication_RunningSummary(run.getFullDisplayName()))
                        .build())
                .build();
        // what the publisher says goes to the log, except checks-api's "no publisher", which the end's publication says once
        java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
        ChecksPublisherFactory.fromRun(run, new hudson.util.StreamTaskListener(said, java.nio.charset.StandardCharsets.UTF_8))
                .publish(details);
        String text = said.toString(java.nio.charset.StandardCharsets.UTF_8);
        if (!text.isBlank() && !text.strip().equals(NO_PUBLISHER)) {
            listener.getLogger().print(text);
        }
    }

    /** What checks-api prints for each publication when no publisher (GitHub, GitLab, ...) is installed. */
    static final String NO_PUBLISHER = "[Checks API] No suitable checks publisher found.";

    static void ended(Run<?, ?> run, SessionPlan plan, long startedAtMillis, SessionResult result, TaskListener listener) {
        ChecksDetails details = base(run, plan)
                .withStatus(ChecksStatus.COMPLETED)
                .withStartedAt(utc(startedAtMillis))
                .withCompletedAt(utc(System.currentTimeMillis()))
                .withConclusion(conclusion(result, Outcomes.verdict(result, plan)))
                .withOutput(new ChecksOutput.ChecksOutputBuilder()
                        .withTitle(Texts.truncate(Texts.oneLine(result.outcome().name() + ": " + result.reason()), MAX_TITLE))
                        .withSummary(summary(result, plan))
                        .withText(numbers(result))
                        // the agent's words, like its summary: only where the console may show them
                        .withAnnotations(plan.get(SessionSettings.AGENT_TEXT_IN_CONSOLE) ? annotations(result) : List.of())
                        .build())
                .build();
        ChecksPublisherFactory.fromRun(run, listener).publish(details);
    }

    /** The review findings (held to the workspace) as annotations on the lines they are about. */
    static List<ChecksAnnotation> annotations(SessionResult result) {
        List<ChecksAnnotation> annotations = new ArrayList<>();
        for (Finding f : result.answer().findings()) {
            ChecksAnnotation.ChecksAnnotationBuilder a = new ChecksAnnotation.ChecksAnnotationBuilder()
                    .withPath(f.path())
                    .withStartLine(f.line())
                    .withEndLine(f.endLine())
                    .withAnnotationLevel(switch (f.severity()) {
                        case HIGH -> ChecksAnnotation.ChecksAnnotationLevel.FAILURE;
                        case MEDIUM -> ChecksAnnotation.ChecksAnnotationLevel.WARNING;
                        case LOW -> ChecksAnnotation.ChecksAnnotationLevel.NOTICE;
                    })
                    .withMessage(Texts.truncate(f.message(), MAX_ANNOTATION));
            String title = f.rule() != null ? f.rule() : f.category();
            if (title != null) {
                a.withTitle(Texts.truncate(Texts.oneLine(title), MAX_TITLE));
            }
            annotations.add(a.build());
        }
        return annotations;
    }

    /** The conclusion: from the outcome, and for the outcomes a step may judge (INCOMPLETE, BLOCKED) from its verdict. */
    static ChecksConclusion conclusion(SessionResult result, BuildVerdict verdict) {
        return switch (result.outcome()) {
            case COMPLETED -> ChecksConclusion.SUCCESS;
            case TIMED_OUT, STALLED -> ChecksConclusion.TIME_OUT;
            case ABORTED -> ChecksConclusion.CANCELED;
            case FAILED, OVER_BUDGET -> ChecksConclusion.FAILURE;
            case INCOMPLETE, BLOCKED, NOT_VERIFIED, OUTPUT_INVALID -> switch (verdict) {
                case SUCCESS -> ChecksConclusion.SUCCESS;
                case UNSTABLE -> ChecksConclusion.NEUTRAL;
                case FAILURE, ABORTED -> ChecksConclusion.FAILURE;
            };
        };
    }

    private static ChecksDetails.ChecksDetailsBuilder base(Run<?, ?> run, SessionPlan plan) {
        ChecksDetails.ChecksDetailsBuilder builder = new ChecksDetails.ChecksDetailsBuilder().withName(plan.checksNameToPublish());
        String root = Jenkins.get().getRootUrl();
        if (root != null) {
            builder.withDetailsURL(root + run.getUrl() + CopilotAutopilotRunAction.URL_NAME + "/");
        }
        return builder;
    }

    /** The agent's summary and blocker (masked), unless its words are kept out of the console; else the reason only. */
    private static String summary(SessionResult result, SessionPlan plan) {
        StringBuilder out = new StringBuilder(result.reason());
        if (plan.get(SessionSettings.AGENT_TEXT_IN_CONSOLE)) {
            if (result.ending().blocker() != null) {
                out.append("\n\n").append(Messages.ChecksPublication_Blocker(result.ending().blocker()));
            }
            if (result.summary() != null) {
                out.append("\n\n").append(result.summary());
            }
        }
        return out.toString();
    }

    private static String numbers(SessionResult result) {
        StringBuilder out = new StringBuilder(Messages.ChecksPublication_Numbers(result.activity().turns(), result.activity().toolCalls(),
                result.activity().failedToolCalls(), result.activity().deniedToolCalls(), Durations.describe(Duration.ofMillis(result.ending().durationMillis()))));
        if (result.usage().inputTokens() != null) {
            out.append('\n').append(Messages.ChecksPublication_Tokens(result.usage().inputTokens(),
                    java.util.Objects.requireNonNullElse(result.usage().outputTokens(), 0L)));
        }
        if (!result.changes().files().isEmpty()) {
            out.append('\n').append(Messages.ChecksPublication_Changes(result.changes().linesAdded(), result.changes().linesRemoved(),
                    result.changes().files().size())).append('\n');
            int shown = 0;
            for (ChangedFile file : result.changes().files()) {
                if (shown++ == MAX_FILES) {
                    out.append("- …\n");
                    break;
                }
                out.append("- `").append(file.path().replace("`", "'")).append("` (").append(file.status()).append(")\n");
            }
        }
        return out.toString();
    }

    private static LocalDateTime utc(long millis) {
        return LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), ZoneOffset.UTC);
    }
}
