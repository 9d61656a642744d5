package io.jenkins.plugins.copilotautopilot.core.render;

import io.jenkins.plugins.copilotautopilot.core.verify.AcceptanceCheck;

import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommandBuilder;
import io.jenkins.plugins.copilotautopilot.core.events.PlainOutput;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import io.jenkins.plugins.copilotautopilot.core.output.AnswerRequest;
import io.jenkins.plugins.copilotautopilot.core.output.OutputVerdict;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
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
import io.jenkins.plugins.copilotautopilot.core.session.AiCredits;
import io.jenkins.plugins.copilotautopilot.core.session.UsageRecord;
import io.jenkins.plugins.copilotautopilot.core.session.UsageTotals;
import io.jenkins.plugins.copilotautopilot.core.changes.WorkTreeChanges;
import io.jenkins.plugins.copilotautopilot.core.text.ConsoleText;
import io.jenkins.plugins.copilotautopilot.core.text.Durations;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.time.Duration;
import java.util.List;

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
    public static final String PREFIX = "[copilot] ";
    /** Longest assistant message printed, in characters. */
    static final int MAX_MESSAGE = 20_000;
    /** Longest single line of CLI output or error printed, in characters. */
    static final int MAX_LINE = 1_000;
    private static final String INDENT = "  ";
    private static final String RULE = "-".repeat(72);
    private static final int CHANGED_FILES_SHOWN = 8;
    /** The {@code session.info} the CLI's create tool sends with the new file's path as its message (CLI 1.0.102). */
    private static final String FILE_CREATED = "file_created";

    private final LogSink sink;
    private final SecretMasker masker;
    private final boolean agentText;
    /** The CLI the header named: found again by the launch script, it is worth a line only with something new. */
    private String headerPath;
    /** With every tool allowed, what the CLI still denies for want of a user is a path outside the allowed ones: say so. */
    private boolean pathDenials;
    /** Whether the work tree was to be recorded; null when the plan is not known ({@link #planned}). */
    private Boolean recordChanges;

    private int currentTurn;
    private boolean routedModel;
    private final java.util.Set<String> cliWarnings = new java.util.HashSet<>();
    /** The organisation's policy setting that overrode the tool permissions, or null: it then denies what needs a user. */
    private String policySetting;
    /** The model name that lets GitHub route each call. */
    public static final String AUTO_MODEL = "auto";
    private int deniedFetches;
    /** The acceptance check's rounds at most; 0 without one. */
    private int verifyRounds;
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
        this.sink = sink;
        this.masker = masker;
        this.agentText = agentText;
    }

    /**
     * What later lines take from the plan (path denials, the acceptance check's rounds, why no changes are listed): set
     * by the header, and by the engine for a follower resumed after a restart, which prints no header.
     */
    public void planned(SessionPlan plan) {
        pathDenials = plan.get(SessionSettings.ALLOW_ALL_TOOLS) && !plan.get(SessionSettings.ALLOW_ALL_PATHS);
        recordChanges = plan.get(SessionSettings.RECORD_CHANGES);
        verifyRounds = plan.get(SessionSettings.VERIFY) == null ? 0 : plan.get(SessionSettings.MAX_VERIFY_ROUNDS);
    }

    /** The lines before the CLI starts: what runs, where, with which policy. */
    public void header(CliCommand command) {
        SessionPlan plan = command.plan();
        planned(plan);
        headerPath = command.executable().path();
        String version = command.executable().version() == null ? "" : " " + command.executable().version();
        line("Copilot CLI" + version + " (" + command.executable().path() + ") in " + command.workingDirectory());
        String model = plan.get(SessionSettings.MODEL);
        routedModel = AUTO_MODEL.equals(model);
        StringBuilder policy = new StringBuilder("Model: ").append(model == null ? "CLI default" : model);
        if (routedModel) {
            policy.append(" (GitHub picks each call's model)");
        }
        if (plan.get(SessionSettings.REASONING_EFFORT) != null) {
            policy.append(", reasoning effort ").append(plan.get(SessionSettings.REASONING_EFFORT));
        }
        String provider = plan.get(SessionSettings.PROVIDER_BASE_URL);
        if (provider != null) {
            policy.append(" via ").append(provider).append(plan.get(SessionSettings.OFFLINE) ? " (offline)" : "");
        }
        Integer continues = plan.get(SessionSettings.MAX_AUTOPILOT_CONTINUES);
        policy.append(" | autopilot continuations: ").append(continues == null ? "CLI default" : "at most " + continues);
        policy.append(" | limits: ").append(limit(plan.limit(SessionSettings.TIMEOUT))).append(" wall clock, ")
                .append(limit(plan.limit(SessionSettings.INACTIVITY_TIMEOUT))).append(" without events");
        if (plan.limit(SessionSettings.TOOL_TIMEOUT) != null) {
            policy.append(", ").append(limit(plan.limit(SessionSettings.TOOL_TIMEOUT))).append(" per tool call");
        }
        if (plan.limit(SessionSettings.STARTUP_TIMEOUT) != null) {
            policy.append(", ").append(limit(plan.limit(SessionSettings.STARTUP_TIMEOUT))).append(" to start");
        }
        line(policy.toString());
        line("Tools: " + toolPolicy(plan));
        boolean allTools = plan.get(SessionSettings.ALLOW_ALL_TOOLS);
        boolean allPaths = plan.get(SessionSettings.ALLOW_ALL_PATHS);
        List<String> addDirs = plan.list(SessionSettings.ADD_DIRS);
        if (allTools || allPaths || !addDirs.isEmpty()) {
            // "all allowed" tools still meet the CLI's path policy: say where they may go
            line("Paths: " + (allPaths ? "any (allowAllPaths)" : "the working directory"
                    + (addDirs.isEmpty() ? "" : " and " + String.join(" ", addDirs)) + " only (allowAllPaths is off)"));
        }
        if (plan.get(SessionSettings.UNTRUSTED)) {
            line("Untrusted change request: no custom instructions (AGENTS.md and the like), no built-in MCP server, no write tools");
        }
        if (command.task().mcpServers() != null) {
            line("MCP servers: " + String.join(", ", command.task().mcpServers().servers()) + " (their tools are listed as server-tool)");
        }
        if (AnswerRequest.schema(plan) != null) {
            line("Answer: " + (plan.get(SessionSettings.OUTPUT_SCHEMA) != null ? "JSON that follows the outputSchema"
                    : "review findings (path, line, severity, message)") + ", as the summary of task_complete (at most "
                    + count(plan.get(SessionSettings.MAX_OUTPUT_ROUNDS), "round") + ")");
        }
        String verify = plan.get(SessionSettings.VERIFY);
        if (verify != null) {
            line("Verify: " + Texts.truncate(Texts.oneLine(verify), MAX_LINE) + " (after task_complete; at most "
                    + count(verifyRounds, "round") + ")");
        }
        if (allTools || !plan.list(SessionSettings.ALLOW_URLS).isEmpty() || !plan.list(SessionSettings.DENY_URLS).isEmpty()
                || plan.get(SessionSettings.SANDBOX)) {
            line("Network: " + networkPolicy(plan));
        }
        // the CLI's own credentials are always hidden: the line is about the build's secrets
        List<String> hidden = command.hiddenFromTools().stream().filter(n -> !CliCommandBuilder.isOwnCredential(n)).toList();
        List<String> toolSecrets = plan.list(SessionSettings.TOOL_SECRETS);
        if (!hidden.isEmpty() || !toolSecrets.isEmpty()) {
            line("Secret variables: " + (hidden.isEmpty() ? "none" : String.join(", ", hidden)) + " hidden from tools"
                    + (toolSecrets.isEmpty() ? "" : "; " + String.join(", ", toolSecrets) + " handed to tools (masked here)"));
        }
        if (allTools) {
            line("WARNING: allowAllTools is on: the agent may run any command and change any file this machine lets it.");
        }
        if (!agentText) {
            line("What the agent writes (messages, commands, outputs, summary) is not shown here: see the session page.");
        }
    }

    @Override
    public void onChangesLeftOut(long files, long kilobytes, long maxFiles, long maxKilobytes) {
        line("Changes: " + Texts.number(files) + " untracked " + (files == 1 ? "file" : "files")
                + (kilobytes > 0 ? " (" + Texts.number(Math.round(kilobytes / 1024.0)) + " MB)" : "")
                + " left out of what the agent changed: over " + Texts.number(maxFiles) + " files or "
                + Texts.number(maxKilobytes / 1024) + " MB; list them in .gitignore (or set recordChanges: false).");
    }

    @Override
    public void onCliFound(String path, String version) {
        boolean noVersion = version == null || version.isEmpty();
        if (noVersion && path.equals(headerPath)) {
            return; // nothing the header did not say
        }
        line("Copilot CLI" + (version == null || version.isEmpty() ? "" : " " + version) + " (" + path + ")");
    }

    private static String limit(Duration d) {
        return d == null ? "no limit" : Durations.describe(d);
    }

    private static String toolPolicy(SessionPlan plan) {
        StringBuilder out = new StringBuilder(plan.get(SessionSettings.ALLOW_ALL_TOOLS) ? "all allowed"
                : "CLI defaults (no writes, most shell commands denied)");
        if (!plan.list(SessionSettings.ALLOW_TOOLS).isEmpty()) {
            out.append(", allowed ").append(String.join(" ", plan.list(SessionSettings.ALLOW_TOOLS)));
        }
        if (!plan.list(SessionSettings.DENY_TOOLS).isEmpty()) {
            out.append(", denied ").append(String.join(" ", plan.list(SessionSettings.DENY_TOOLS)));
        }
        if (!plan.list(SessionSettings.APPROVE_TOOLS).isEmpty()) {
            out.append(", waiting for a person's approval: ").append(String.join(" ", plan.list(SessionSettings.APPROVE_TOOLS)));
        }
        return out.toString();
    }

    @Override
    public void onTurnStarted(Turn turn) {
        currentTurn = turn.number();
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

    /** What CLI 1.0.102 lets the tools reach: with every tool allowed any URL but the denied ones (measured). */
    private static String networkPolicy(SessionPlan plan) {
        List<String> deny = plan.list(SessionSettings.DENY_URLS);
        List<String> allow = plan.list(SessionSettings.ALLOW_URLS);
        String denied = deny.isEmpty() ? "" : ", never " + String.join(" ", deny);
        String sandbox = plan.get(SessionSettings.SANDBOX) ? "; shell commands run in the CLI's sandbox" : "";
        if (plan.get(SessionSettings.ALLOW_ALL_TOOLS)) {
            return "any URL (every tool is allowed)" + denied + sandbox;
        }
        return (allow.isEmpty() ? "no URL" : String.join(" ", allow) + " only") + denied + sandbox;
    }

    private boolean isPathDenial(ToolCall call) {
        return pathDenials && UrlDenials.unattended(call.error());
    }

    /** An answer checked against the session's schema; {@code again}: the agent is sent back to fix it. */
    /** A call that waits for a person ({@code approveTools}). */
    public void approvalRequested(io.jenkins.plugins.copilotautopilot.core.approval.PendingApproval call, java.time.Duration timeout) {
        line("Waiting for approval (approveTools " + call.pattern() + "): " + describe(call) + "; denied "
                + Durations.describe(timeout) + " after it was asked unless someone decides");
    }

    /** What became of a call that waited. */
    public void approvalDecided(io.jenkins.plugins.copilotautopilot.core.approval.PendingApproval call,
                                io.jenkins.plugins.copilotautopilot.core.approval.ApprovalDecision decision) {
        String when = java.time.Instant.ofEpochMilli(decision.atMillis()).truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        line(switch (decision.verdict()) {
            case APPROVED -> "Approved by " + decision.by() + " at " + when + ": " + describe(call);
            case DENIED -> "Denied by " + decision.by() + " at " + when + ": " + describe(call);
            case TIMED_OUT -> "Denied: nobody decided in time (" + decision.reason().split(";")[0] + "): " + describe(call);
            case LEFT_TO_RULES -> "Not asked: denyTools matches it, the tool rules deny it: " + describe(call);
            case SESSION_ENDED -> "No longer waits: the session ended: " + describe(call);
        });
    }

    private String describe(io.jenkins.plugins.copilotautopilot.core.approval.PendingApproval call) {
        return call.tool() + (agentText ? " " + Texts.truncate(Texts.oneLine(call.arguments()), MAX_LINE)
                : " (its arguments are on the session page)");
    }

    public void answerChecked(OutputVerdict verdict, boolean again) {
        if (verdict.valid()) {
            line("Answer " + verdict.round() + ": follows the schema (" + String.format(java.util.Locale.ROOT, "%,d", verdict.answer().length())
                    + " characters)");
        } else {
            // the validator's words name the agent's keys and values: only where the agent's text may be shown
            String why = agentText ? Texts.truncate(Texts.oneLine(verdict.problem()), MAX_LINE)
                    : verdict.errors().size() + (verdict.errors().size() == 1 ? " error" : " errors") + " (on the session page's journal)";
            line("Answer " + verdict.round() + ": does not follow the schema: " + why + (again ? "; the agent is asked to fix it" : "; no rounds left"));
        }
    }

    @Override
    public void onVerifyStarted(int round, java.time.Instant at) {
        line("Verify, round " + round + (verifyRounds > 0 ? " of " + verifyRounds : "") + ": running the acceptance check");
    }

    @Override
    public void onVerifyOutput(String text) {
        line("verify | " + Texts.truncate(text, MAX_LINE));
    }

    @Override
    public void onVerifyFinished(int round, int exitCode, java.time.Instant at) {
        AcceptanceCheck.Verdict verdict = AcceptanceCheck.verdict(exitCode,
                exitCode == io.jenkins.plugins.copilotautopilot.core.session.SessionTracker.STOPPED_VERIFY);
        String said = switch (verdict) {
            case STOPPED -> "stopped with the session";
            case PASSED -> "passed";
            case CANNOT_START -> "FAILED with exit code " + exitCode + "; the check could not start";
            case FAILED -> "FAILED with exit code " + exitCode + (verifyRounds == 0
                    || new AcceptanceCheck(null, verifyRounds).sendsBack(verdict, round) ? "; the agent is asked to fix it" : "; no rounds left");
        };
        line("Verify, round " + round + ": " + said);
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

    @Override
    public void onUsage(UsageRecord usage) {
        String premium = usage.premiumRequests() > 0 ? " | premium requests: " + Texts.number(usage.premiumRequests()) : "";
        // the CLI writes its usage records in batches, so a record may come turns after its call
        String late = usage.turn() > 0 && usage.turn() != currentTurn ? " (turn " + usage.turn() + ")" : "";
        String credits = usage.aiCredits() == null ? "" : " | AI credits: " + AiCredits.format(usage.aiCredits());
        // with model auto, GitHub picks each call's model: the line names it
        String routed = routedModel && usage.model() != null ? " | model: " + usage.model() : "";
        line(INDENT + "tokens" + late + ": " + thousands(usage.inputTokens()) + " in, " + thousands(usage.outputTokens()) + " out"
                + routed + premium + credits);
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
        line(RULE);
        block("", outcome.outcome() + ": " + outcome.reason());
        if (failure != null) {
            line("Failure: " + failure.describe());
        }
        if (outcome.outcome() == Outcome.BLOCKED && state.taskBlocker() != null && agentText) {
            block("Blocked by: ", Texts.truncate(state.taskBlocker().strip(), MAX_MESSAGE));
        }
        if (!Texts.isBlank(state.taskSummary()) && agentText) {
            block("Summary: ", Texts.truncate(state.taskSummary().strip(), MAX_MESSAGE));
        }
        ResultInfo result = state.result();
        Double premium = usage.sessionPremiumRequests(result);
        StringBuilder numbers = new StringBuilder()
                .append(count(state.turns(), "turn")).append(" | ")
                .append(count(state.toolCalls(), "tool call"))
                .append(" (").append(state.failedToolCalls()).append(" failed, ")
                .append(state.interruptedToolCalls() > 0 ? state.interruptedToolCalls() + " interrupted, " : "")
                .append(state.deniedToolCalls()).append(" denied)")
                .append(" | ").append(count(state.nudges(), "continuation"))
                .append(" | premium requests: ").append(premium == null ? "unknown" : Texts.number(premium))
                .append(usage.calls() > 0 ? " | AI credits: " + credits(usage) : "")
                .append(" | ").append(Durations.describe(duration));
        line(numbers.toString());
        if (deniedFetches > 0) {
            line("Network: " + count(deniedFetches, "tool call") + " denied for a URL: " + String.join(" ", deniedUrls)
                    + (moreDeniedUrls > 0 ? " and more" : ""));
        }
        if (usage.calls() > 0) {
            line("Tokens: " + thousands(usage.inputTokens()) + " in (" + thousands(usage.cacheReadTokens()) + " from the cache), "
                    + thousands(usage.outputTokens()) + " out, in " + count(usage.calls(), "model call"));
        } else if (state.inputTokens() != null || state.outputTokens() != null) {
            line("Tokens: " + nullToZero(state.inputTokens()) + " in, " + nullToZero(state.outputTokens()) + " out");
        }
        if (changes != null) {
            line(changed(changes));
        } else if (result != null) {
            // without a snapshot of the work tree only the CLI's own count is known, and it misses what shell commands changed
            line("Code changes by the CLI's edit tools: +" + result.linesAdded() + " -" + result.linesRemoved() + " in "
                    + count(result.filesModified(), "file") + "; " + whyNoSnapshot() + ", so shell commands' changes are not counted");
        }
        if (result != null) {
            boolean differs = result.exitCode() != null && !result.exitCode().equals(exitCode);
            line("Session " + result.sessionId() + " | CLI exit code " + (exitCode == null ? "unknown" : exitCode)
                    + (differs ? " (it reported " + result.exitCode() + ")" : ""));
        }
    }

    /** The session's AI credits as the closing line says them: never an unknown amount as 0. */
    static String credits(UsageTotals usage) {
        return switch (usage.aiCreditsStatus()) {
            case AiCredits.COMPLETE -> AiCredits.format(usage.aiCredits());
            case AiCredits.PARTIAL -> "at least " + AiCredits.format(usage.aiCredits()) + " (" + (usage.calls() - usage.creditedCalls())
                    + " of " + count(usage.calls(), "model call") + " reported none)";
            default -> "not reported";
        };
    }

    private String whyNoSnapshot() {
        if (recordChanges == null) {
            return "no snapshot of a git work tree";
        }
        return recordChanges ? "not a git work tree" : "changes are not recorded (recordChanges is off)";
    }

    /** {@code Changed: 3 files (+12 -4): a.txt, src/b.txt (added), old.txt (deleted)}. */
    private static String changed(WorkTreeChanges changes) {
        if (changes.fileCount() == 0) {
            return "Changed: no files in the git work tree";
        }
        StringBuilder out = new StringBuilder("Changed: ").append(count(changes.fileCount(), "file"))
                .append(" (+").append(changes.linesAdded()).append(" -").append(changes.linesRemoved()).append("): ");
        int shown = 0;
        for (var file : changes.files()) {
            if (shown == CHANGED_FILES_SHOWN) {
                break;
            }
            out.append(shown++ == 0 ? "" : ", ").append(file.path())
                    .append("modified".equals(file.status()) ? "" : " (" + file.status() + ")");
        }
        if (changes.fileCount() > shown) {
            out.append(" and ").append(changes.fileCount() - shown).append(" more");
        }
        return out.toString();
    }

    private static String thousands(long n) {
        return String.format(java.util.Locale.ROOT, "%,d", n);
    }

    private static long nullToZero(Long value) {
        return value == null ? 0 : value;
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    private static boolean isTaskComplete(ToolCall call) {
        return "task_complete".equals(call.name());
    }

    /** Text that may span lines: masked as a whole, then written line by line under {@code lead}. */
    private void block(String lead, String text) {
        String safe = ConsoleText.clean(masker.mask(text)).replace("\r\n", "\n").replace('\r', '\n');
        String[] lines = safe.split("\n");
        String continuation = " ".repeat(Math.min(lead.length(), 12));
        for (int i = 0; i < lines.length; i++) {
            emit((i == 0 ? lead : continuation) + lines[i]);
        }
    }

    /** One line: masked, cleaned, never containing a line break. */
    private void line(String text) {
        emit(Texts.singleLine(ConsoleText.clean(masker.mask(text))));
    }

    private void emit(String text) {
        sink.println(PREFIX + masker.mask(text));
    }
}
