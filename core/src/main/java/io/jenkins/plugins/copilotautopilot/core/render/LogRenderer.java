package io.jenkins.plugins.copilotautopilot.core.render;


import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.events.PlainOutput;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import io.jenkins.plugins.copilotautopilot.core.outcome.SessionOutcome;
import io.jenkins.plugins.copilotautopilot.core.session.ResultInfo;
import io.jenkins.plugins.copilotautopilot.core.session.ServiceFailure;
import io.jenkins.plugins.copilotautopilot.core.session.SessionError;
import io.jenkins.plugins.copilotautopilot.core.session.SessionListener;
import io.jenkins.plugins.copilotautopilot.core.session.SessionState;
import io.jenkins.plugins.copilotautopilot.core.session.TaskBlockers;
import io.jenkins.plugins.copilotautopilot.core.session.ToolCall;
import io.jenkins.plugins.copilotautopilot.core.session.UrlDenials;
import io.jenkins.plugins.copilotautopilot.core.session.ToolStatus;
import io.jenkins.plugins.copilotautopilot.core.session.Turn;
import io.jenkins.plugins.copilotautopilot.core.session.UsageTotals;
import io.jenkins.plugins.copilotautopilot.core.changes.WorkTreeChanges;
import io.jenkins.plugins.copilotautopilot.core.text.Durations;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.time.Duration;

/**
 * The live log of a session: one line per meaningful event, written and flushed as it happens, and a
 * closing block. Serves the terminal runner and the Jenkins build log alike.
 *
 * <pre>
 * [copilot] Turn 1
 * [copilot]   I'll create the file.
 * [copilot]   &gt; bash: echo hello &gt; hello.txt
 * [copilot]   &lt; bash ok (0.1s)
 * </pre>
 *
 * <p>Deltas, background-task notices and other noise are not printed. Agent text is untrusted: secrets
 * are masked over whole messages (so a secret split across lines is caught) and control characters are
 * neutralised before anything is written.
 *
 * <p>Long because the log is one voice: every line's wording is here, next to the others it must read well with.
 */
public final class LogRenderer implements SessionListener {
    public static final String PREFIX = LogLines.PREFIX;
    static final int MAX_MESSAGE = LogLines.MAX_MESSAGE;
    static final int MAX_LINE = LogLines.MAX_LINE;
    private static final String INDENT = LogLines.INDENT;
    /** The {@code session.info} the CLI's create tool sends with the new file's path as its message (CLI 1.0.102). */
    private static final String FILE_CREATED = "file_created";

    private final LogLines lines;
    private final boolean agentText;
    /** The CLI the header named: found again by the launch script, it is worth a line only with something new. */
    private String headerPath;
    /** With every tool allowed, what the CLI still denies for want of a user is a path outside the allowed ones: say so. */
    private boolean pathDenials;
    /** Whether the work tree was to be recorded; null when the plan is not known ({@link #planned}). */
    private Boolean recordChanges;

    private final java.util.Set<String> cliWarnings = new java.util.HashSet<>();
    /** The organisation's policy setting that overrode the tool permissions, or null: it then denies what needs a user. */
    private String policySetting;
    /** The model name that lets GitHub route each call. */
    public static final String AUTO_MODEL = "auto";
    private int deniedFetches;
    private final java.util.Set<String> deniedUrls = new java.util.LinkedHashSet<>();
    /** Denied URLs beyond the ones listed (counted per call, not distinct). */
    private int moreDeniedUrls;

    public LogRenderer(LogSink sink, SecretMasker masker) {
        this(sink, masker, true);
    }

    /**
     * @param agentText false: what the agent wrote (its messages, its tools' arguments and outputs, its summary) stays
     *                  out of the log, which then shows the session's course only (turns, tools, results, numbers)
     */
    public LogRenderer(LogSink sink, SecretMasker masker, boolean agentText) {
        this.lines = new LogLines(sink, masker, agentText);
        this.agentText = agentText;
    }

    /** How this renderer writes a line: for the parts of a session that have lines of their own. */
    public LogLines lines() {
        return lines;
    }

    /**
     * What later lines take from the plan (path denials, the acceptance check's rounds, why no changes are listed): set
     * by the header, and by the engine for a follower resumed after a restart, which prints no header.
     */
    public void planned(SessionPlan plan) {
        pathDenials = plan.get(SessionSettings.ALLOW_ALL_TOOLS) && !plan.get(SessionSettings.ALLOW_ALL_PATHS);
        recordChanges = plan.get(SessionSettings.RECORD_CHANGES);
    }

    /** The lines before the CLI starts: what runs, where, with which policy. */
    public void header(CliCommand command) {
        planned(command.plan());
        headerPath = command.executable().path();
        new HeaderLines(lines).write(command);
    }

    @Override
    public void onCliFound(String path, String version) {
        boolean noVersion = version == null || version.isEmpty();
        if (noVersion && path.equals(headerPath)) {
            return; // nothing the header did not say
        }
        line("Copilot CLI" + (version == null || version.isEmpty() ? "" : " " + version) + " (" + path + ")");
    }

    @Override
    public void onTurnStarted(Turn turn) {
        line("Turn " + turn.number());
    }

    @Override
    public void onAssistantMessage(Turn turn, String content) {
        if (agentText) {
            block(INDENT, Texts.truncate(content.strip(), MAX_MESSAGE));
        }
    }

    @Override
    public void onToolStarted(ToolCall call) {
        if (isTaskComplete(call)) {
            return;
        }
        String args = call.argumentSummary().isEmpty() || !agentText ? "" : ": " + call.argumentSummary();
        line(INDENT + "> " + call.name() + args);
    }

    private boolean isPathDenial(ToolCall call) {
        return pathDenials && UrlDenials.unattended(call.error());
    }

    @Override
    public void onToolCompleted(ToolCall call) {
        if (!call.deniedUrls().isEmpty()) {
            deniedFetches++;
            for (String url : call.deniedUrls()) {
                if (deniedUrls.size() < UrlDenials.MAX_KEPT) {
                    deniedUrls.add(url);
                } else if (!deniedUrls.contains(url)) {
                    moreDeniedUrls++;
                }
            }
        }
        if (isTaskComplete(call) && call.status() == ToolStatus.SUCCEEDED) {
            return;
        }
        String took = call.duration() == null ? "" : " (" + Durations.describe(call.duration()) + ")";
        String error = agentText || call.status() == ToolStatus.DENIED ? Texts.truncate(Texts.oneLine(call.error()), MAX_LINE)
                : "(the output is on the session page)";
        String result = switch (call.status()) {
            case SUCCEEDED -> "ok" + took;
            case DENIED -> "DENIED" + took + (!call.deniedUrls().isEmpty() ? " (network: " + String.join(" ", call.deniedUrls()) + ")"
                    : policySetting != null ? " (your organisation's policy: " + policySetting + ")"
                    : isPathDenial(call) ? " (a path outside the allowed ones: every tool is allowed)" : "")
                    + ": " + error;
            case FAILED -> "FAILED" + took + ": " + error;
            case INTERRUPTED -> "INTERRUPTED" + took + ": " + error;
            case RUNNING -> "still running";
        };
        // With calls running in parallel, a result line names its call by its arguments.
        String which = call.overlapping() && !call.argumentSummary().isEmpty() && agentText
                ? " [" + Texts.truncate(call.argumentSummary(), 60) + "]" : "";
        line(INDENT + "< " + call.name() + which + " " + result);
    }

    @Override
    public void onNudge(int nudgeNumber) {
        line("Autopilot continuation " + nudgeNumber + ": the agent stopped without task_complete; the CLI asks it to go on");
    }

    @Override
    public void onTaskComplete(String summary, Boolean success, String outcome, String blocker) {
        if (TaskBlockers.CONTINUE.equals(outcome)) {
            line(INDENT + "Task complete not accepted (outcome: continue): the agent goes on");
            return;
        }
        if (TaskBlockers.BLOCKED.equals(outcome)) {
            if (!agentText) {
                line(INDENT + "Task blocked");
                return;
            }
            block(INDENT + "Task blocked: ", Texts.truncate((blocker != null ? blocker : Texts.isBlank(summary) ? "(no blocker named)"
                    : summary).strip(), MAX_MESSAGE));
            if (blocker != null && !Texts.isBlank(summary)) {
                block(INDENT + "Summary: ", Texts.truncate(summary.strip(), MAX_MESSAGE));
            }
            return;
        }
        String state = Boolean.FALSE.equals(success) ? "Task complete (not accepted as successful): "
                : outcome != null && !TaskBlockers.COMPLETED.equals(outcome)
                ? "Task complete (outcome: " + Texts.truncate(Texts.oneLine(outcome), 40) + "): " : "Task complete: ";
        if (!agentText) {
            line(INDENT + state.substring(0, state.length() - 2));
            return;
        }
        block(INDENT + state, Texts.isBlank(summary) ? "(no summary)" : Texts.truncate(summary.strip(), MAX_MESSAGE));
    }

    @Override
    public void onSessionError(SessionError error) {
        line("ERROR: " + Texts.truncate(Texts.oneLine(error.describe()), MAX_LINE));
    }

    @Override
    public void onWarning(String warningType, String message) {
        if (!cliWarnings.add(warningType + "\n" + message)) {
            return; // the CLI says it again at each start of the session (going on after a refusal, the check's rounds)
        }
        line("WARNING" + (warningType == null ? "" : " (" + warningType + ")") + ": " + Texts.truncate(Texts.oneLine(message), MAX_LINE));
    }

    @Override
    public void onInfo(String infoType, String message) {
        if (FILE_CREATED.equals(infoType)) {
            return; // its message is the path the agent chose, which the create call's own line names (or keeps out)
        }
        if (!Texts.isBlank(message)) {
            line("info: " + Texts.truncate(Texts.oneLine(message), MAX_LINE));
        }
    }

    @Override
    public void onAutopilotStopped(String reason) {
        if (reason != null && !"task_complete".equals(reason)) {
            line("Autopilot stopped: " + reason);
        }
    }

    @Override
    public void onResult(ResultInfo result) {
        // reported in the closing block
    }

    @Override
    public void onPlainOutput(PlainOutput plain) {
        if (plain.truncated()) {
            line("(a " + (plain.eventType() == null ? "" : plain.eventType() + " ") + "line of " + plain.originalBytes()
                    + " bytes was too long to read; its beginning is in the journal)");
        } else {
            line("cli: " + Texts.truncate(plain.raw(), MAX_LINE));
        }
    }

    /** A line the CLI wrote on stderr. */
    public void stderr(String text) {
        line("stderr: " + Texts.truncate(text, MAX_LINE));
    }

    /** A line from the engine itself (not from the CLI). */
    public void note(String text) {
        block("", text);
    }

    @Override
    public void onAutoModeResolved(String model, boolean fallback) {
        block("", "Model auto: GitHub's routing chose " + (model == null ? "a model" : model) + (fallback ? " (its fallback)" : ""));
    }

    @Override
    public void onPolicyEnforced(String setting, String escalation, boolean failClosed) {
        policySetting = setting == null || setting.isBlank() ? "managed settings" : setting;
    }

    /** The closing block: outcome, reason, summary and the numbers. */
    public void closing(SessionOutcome outcome, SessionState state, Duration duration) {
        closing(outcome, state, duration, UsageTotals.NONE, null);
    }

    /** The closing block, with what the model calls used and what the agent changed (null: not a git work tree). */
    public void closing(SessionOutcome outcome, SessionState state, Duration duration, UsageTotals usage,
                        WorkTreeChanges changes) {
        ResultInfo result = state.result();
        closing(outcome, state, duration, usage, changes, result == null ? null : result.exitCode(), null);
    }

    /**
     * The closing block, with the exit code of the CLI's process (null when it never came), and what failed and what to
     * do when the service refused the session (null otherwise).
     */
    public void closing(SessionOutcome outcome, SessionState state, Duration duration, UsageTotals usage,
                        WorkTreeChanges changes, Integer exitCode, ServiceFailure failure) {
        new ClosingLines(lines, recordChanges, deniedFetches, deniedUrls, moreDeniedUrls > 0)
                .write(outcome, state, duration, usage, changes, exitCode, failure);
    }

    private static boolean isTaskComplete(ToolCall call) {
        return "task_complete".equals(call.name());
    }

    private void block(String lead, String text) {
        lines.block(lead, text);
    }

    private void line(String text) {
        lines.line(text);
    }
}
