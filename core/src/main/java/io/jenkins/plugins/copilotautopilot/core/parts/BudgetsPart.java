package io.jenkins.plugins.copilotautopilot.core.parts;

import io.jenkins.plugins.copilotautopilot.core.outcome.ProcessEnd;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.session.AiCredits;
import io.jenkins.plugins.copilotautopilot.core.session.ResultInfo;
import io.jenkins.plugins.copilotautopilot.core.session.SessionState;
import io.jenkins.plugins.copilotautopilot.core.session.SessionTracker;
import io.jenkins.plugins.copilotautopilot.core.session.UsageTotals;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Spend: the step's budgets ({@code maxTokens}, {@code maxPremiumRequests}, {@code maxAiCredits}) and the limits across
 * runs ({@link SpendGuard}), counted from the usage records as they come; a session that reaches one is stopped
 * OVER_BUDGET with what was spent. Says once when a budget cannot count what it should (no records, no AI credits), and
 * when the CLI's own count went past a limit its records had not.
 */
public final class BudgetsPart implements SessionPart {
    private final PartContext context;
    private final Budget budget;
    private SpendGuard spendGuard;
    private int guardedCalls = -1;
    private boolean usageWarned;
    private boolean creditsWarned;
    /** Whether a step's budget (not a quota) stopped the session: its reason then gives the session's final total. */
    private boolean budgetStopped;

    BudgetsPart(SessionPlan plan, PartContext context) {
        this.context = context;
        this.budget = new Budget(plan.get(SessionSettings.MAX_PREMIUM_REQUESTS), plan.get(SessionSettings.MAX_TOKENS),
                plan.get(SessionSettings.MAX_AI_CREDITS));
    }

    /** Checks the session's usage against limits across runs as it grows ({@code null}: none). */
    public synchronized void spendGuard(SpendGuard guard) {
        this.spendGuard = guard;
    }

    @Override
    public synchronized String stopReason() {
        checkUsageRecords(false);
        String spent = budget.spent(tracker().usage());
        if (spent != null) {
            budgetStopped = true;
            return spent;
        }
        return guardedSpend();
    }

    @Override
    public synchronized void ended(SessionState state) {
        checkUsageRecords(true);
        checkReportedPremiumRequests(state.result());
    }

    @Override
    public synchronized ProcessEnd finalEnd(ProcessEnd end, SessionState state) {
        UsageTotals spent = tracker().usage();
        if (budgetStopped && end.termination() == ProcessEnd.Termination.OVER_BUDGET && budget.spent(spent) != null) {
            // calls recorded after the stop was decided count too: the reason and the totals say the same
            ProcessEnd total = ProcessEnd.overBudget(end.exitCode(), budget.spent(spent), end.activity());
            return end.unconfirmed() ? total.asUnconfirmed() : total;
        }
        if (end.termination() == ProcessEnd.Termination.EXITED && budget.maxAiCredits() != null && state.firstError() != null
                && "session_limits".equals(state.firstError().errorType())) {
            // the CLI's own cap, handed the same budget, stopped it first at a model call's end: the budget's stop
            return ProcessEnd.overBudget(end.exitCode(), "AI credits used: " + (spent.aiCredits() == null ? "?"
                    : AiCredits.format(spent.aiCredits())) + ", limit " + AiCredits.format(budget.maxAiCredits())
                    + " (maxAiCredits; the Copilot CLI stopped at it)", state.activity());
        }
        return end;
    }

    private SessionTracker tracker() {
        return context.tracker();
    }

    /**
     * A budget counts the usage records the CLI writes into its own session state, which is no interface of the CLI's:
     * when a budget is set and model calls end without records, the budget cannot stop anything, and the log and the
     * result say so, once. One record may come late (the CLI writes it with the next call); at the end, none may.
     */
    private void checkUsageRecords(boolean atTheEnd) {
        checkCreditsReported();
        if (usageWarned || !budget.isSet()) {
            return;
        }
        SessionState now = tracker().state();
        int calls = now.turns();
        int recorded = tracker().usage().calls();
        // a call the service refused (a rate limit, a quota) is not billed and has no record
        boolean refused = now.retries() > 0 || now.firstError() != null || tracker().riddenOut() > 0;
        if (calls - recorded >= (atTheEnd ? 1 : 2) && recorded == 0 && !refused) {
            usageWarned = true;
            context.warn("WARNING: " + budget.names() + " is set, but the Copilot CLI wrote no usage record for " + calls
                    + (calls == 1 ? " model call" : " model calls")
                    + " where it used to (its session state): the budget cannot stop the session.");
        }
    }

    /**
     * An AI-credit budget counts what GitHub bills, which an own provider (or a service that sends no amounts) never
     * says: once a call was recorded without one, the log and the result say the budget cannot stop the session.
     */
    private void checkCreditsReported() {
        UsageTotals usage = tracker().usage();
        if (creditsWarned || usage.calls() == usage.creditedCalls()) {
            return;
        }
        creditsWarned = true;
        String uncounted = spendGuard == null ? null : spendGuard.uncounted(usage);
        if (uncounted != null) {
            context.warn("WARNING: " + uncounted);
        }
        if (budget.maxAiCredits() == null) {
            return;
        }
        context.warn("WARNING: maxAiCredits is set, but the model provider reports no AI credits for "
                + (usage.creditedCalls() == 0 ? "the session's model calls (an own provider?)" : "some model calls")
                + ": the AI-credit budget cannot count " + (usage.creditedCalls() == 0 ? "them" : "those")
                + "; set maxTokens or maxPremiumRequests as well.");
    }

    /** The CLI's own count of premium requests (its result line) against the limit, which records may have missed. */
    private void checkReportedPremiumRequests(ResultInfo info) {
        if (budget.maxPremiumRequests() == null || info == null || info.premiumRequests() == null) {
            return;
        }
        double reported = info.premiumRequests();
        if (reported >= budget.maxPremiumRequests() && tracker().usage().premiumRequests() < budget.maxPremiumRequests()) {
            context.warn("WARNING: the Copilot CLI counted " + Texts.number(reported) + " premium requests, over the limit of "
                    + Texts.number(budget.maxPremiumRequests()) + "; its usage records had counted fewer, so the budget did not stop it.");
        }
    }

    /** The spend guard's words once the session's totals grew past what it allows; null otherwise (or without one). */
    private String guardedSpend() {
        if (spendGuard == null) {
            return null;
        }
        UsageTotals usage = tracker().usage();
        if (usage.calls() == guardedCalls || usage.calls() == 0) {
            // asked only when the totals grew (the ledger counts what they add), and first once the session spent
            // something: by then the CLI has named its model, under which the ledger keeps the session
            return null;
        }
        guardedCalls = usage.calls();
        return spendGuard.reached(usage, tracker().model());
    }

    /** The limits on what the model calls may use; nulls for none. */
    private record Budget(Double maxPremiumRequests, Long maxTokens, Double maxAiCredits) {
        boolean isSet() {
            return maxPremiumRequests != null || maxTokens != null || maxAiCredits != null;
        }

        /** The limits set, by their option names. */
        String names() {
            List<String> names = new ArrayList<>();
            if (maxTokens != null) {
                names.add("maxTokens");
            }
            if (maxPremiumRequests != null) {
                names.add("maxPremiumRequests");
            }
            if (maxAiCredits != null) {
                names.add("maxAiCredits");
            }
            if (names.size() > 1) {
                return "Budgets (" + String.join(", ", names) + ")";
            }
            return switch (names.get(0)) {
                case "maxTokens" -> "A token budget (maxTokens)";
                case "maxPremiumRequests" -> "A premium-request budget (maxPremiumRequests)";
                default -> "An AI-credit budget (maxAiCredits)";
            };
        }

        /** How much was spent against which limit, once a limit is reached; else null. */
        String spent(UsageTotals usage) {
            if (maxTokens != null && usage.tokens() >= maxTokens) {
                return String.format(Locale.ROOT, "%,d tokens used, limit %,d", usage.tokens(), maxTokens);
            }
            if (maxPremiumRequests != null && usage.premiumRequests() >= maxPremiumRequests) {
                return "premium requests used: " + Texts.number(usage.premiumRequests()) + ", limit " + Texts.number(maxPremiumRequests);
            }
            if (maxAiCredits != null && usage.aiCredits() != null && usage.aiCredits() >= maxAiCredits) {
                return "AI credits used: " + AiCredits.format(usage.aiCredits()) + ", limit "
                        + AiCredits.format(maxAiCredits) + " (maxAiCredits)";
            }
            return null;
        }
    }
}
