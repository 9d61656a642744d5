package io.jenkins.plugins.copilotautopilot.core.parts;


import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.ALLOW_ALL_TOOLS;
import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.MAX_AI_CREDITS;
import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.MAX_AUTOPILOT_CONTINUES;
import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.parts.SpendGuard;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.quota.Quota;
import io.jenkins.plugins.copilotautopilot.core.quota.QuotaReached;
import io.jenkins.plugins.copilotautopilot.core.quota.Spend;
import io.jenkins.plugins.copilotautopilot.core.quota.UsageExport;
import io.jenkins.plugins.copilotautopilot.core.quota.UsageLedger;
import io.jenkins.plugins.copilotautopilot.core.report.SessionReport;
import io.jenkins.plugins.copilotautopilot.core.report.SessionReportReader;
import io.jenkins.plugins.copilotautopilot.core.session.UsageTotals;
import io.jenkins.plugins.copilotautopilot.core.testing.E2eRun;
import io.jenkins.plugins.copilotautopilot.core.testing.GithubStandIn;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * AI credits with the real CLI in GitHub-token mode: what GitHub reports for each model call is the same in the log, the
 * result, the journal's report (the session page) and the usage index (its CSV, a quota's count); a budget and a quota
 * in AI credits stop the session; a provider that reports none is never taken for free.
 */
@Timeout(120)
class AiCreditsEndToEndTest {
    @TempDir
    Path dir;

    private static final String WRITE = "echo hi > hi.txt";

    /** A spend guard that counts the session in {@code ledger} and stops it at the first of {@code quotas} reached. */
    private static SpendGuard counting(UsageLedger ledger, List<Quota> quotas) {
        return (usage, model) -> {
            try {
                ledger.record("this-run", "team/app", String.valueOf(model), spend(usage));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            QuotaReached reached = ledger.reached(quotas, "team/app");
            return reached == null ? null : reached.describe(ledger.zone());
        };
    }

    private static Spend spend(UsageTotals usage) {
        return new Spend(usage.tokens(), usage.premiumRequests(), usage.aiCredits() == null ? 0 : usage.aiCredits(),
                usage.creditedCalls() < usage.calls());
    }

    @Test
    void theCreditsGithubReportsAreTheSameInTheLogTheResultTheReportAndTheUsageIndex() throws Exception {
        UsageLedger ledger = UsageLedger.open(dir.resolve("usage.jsonl"), Clock.system(ZoneId.of("UTC")), 30);
        try (GithubStandIn github = GithubStandIn.start(Scripts.bashThenComplete(WRITE, "Wrote hi.txt.")).creditsPerCall(2.5)) {
            E2eRun run = E2eRun.withGithub(github).prompt("Write hi.txt, then finish.").options(o -> o.set(ALLOW_ALL_TOOLS, true))
                    .spendGuard(counting(ledger, List.of())).run();

            assertThat(run.result.outcome()).isEqualTo(Outcome.COMPLETED);
            assertThat(run.result.usage().aiCredits()).isEqualTo(5.0);
            assertThat(run.result.usage().aiCreditsStatus()).isEqualTo("complete");
            assertThat(run.result.toMap()).containsEntry("aiCredits", 5.0).containsEntry("aiCreditsStatus", "complete");
            assertThat(run.log.lines()).filteredOn(l -> l.endsWith("| AI credits: 2.5")).hasSize(2);
            assertThat(run.log.lines()).anyMatch(l -> l.contains("| premium requests: 1 | AI credits: 5 |"));

            SessionReport report = SessionReportReader.read(run.journal);
            assertThat(report.totals().aiCredits()).isEqualTo(5.0);
            assertThat(report.totals().aiCreditsStatus()).isEqualTo("complete");

            // the session's last totals at its end, as the plugin records them (a session this quick may end before the
            // follower's guard saw a record)
            ledger.record("this-run", "team/app", run.result.ending().model(), new Spend(run.result.usage().inputTokens() + run.result.usage().outputTokens(),
                    run.result.usage().premiumRequests(), run.result.usage().aiCredits(), false));
            assertThat(ledger.spent(Quota.controller(Quota.Metric.AI_CREDITS, 100, Quota.Window.DAY), "team/app")).isEqualTo(5.0);
            String csv = UsageExport.csv(ledger.days(LocalDate.now(ZoneId.of("UTC")).minusDays(1), LocalDate.now(ZoneId.of("UTC")), j -> true));
            assertThat(csv).contains(",team/app,gpt-5,5,2040,");
        } finally {
            ledger.close();
        }
    }

    @Test
    void aServiceThatReportsNoCreditsGivesUnknownCreditsNeverZero() throws Exception {
        try (GithubStandIn github = GithubStandIn.start(Scripts.bashThenComplete(WRITE, "Wrote hi.txt.")).withoutCopilotUsage()) {
            E2eRun run = E2eRun.withGithub(github).prompt("Write hi.txt, then finish.").options(o -> o.set(ALLOW_ALL_TOOLS, true)
                    .set(MAX_AI_CREDITS, 50.0)).run();

            assertThat(run.result.outcome()).isEqualTo(Outcome.COMPLETED);
            assertThat(run.result.usage().aiCredits()).isNull();
            assertThat(run.result.usage().aiCreditsStatus()).isEqualTo("unavailable");
            assertThat(run.log.lines()).anyMatch(l -> l.contains("| AI credits: not reported |"))
                    .anyMatch(l -> l.startsWith("[copilot] WARNING: maxAiCredits is set, but the model provider reports no AI credits"));
            assertThat(SessionReportReader.read(run.journal).totals().aiCredits()).isNull();
        }
    }

    @Test
    void anAiCreditBudgetStopsTheSessionOverBudgetNamingIt() throws Exception {
        try (GithubStandIn github = GithubStandIn.start(request -> Reply.text("Still thinking, no task_complete yet.")).creditsPerCall(10)) {
            E2eRun run = E2eRun.withGithub(github).prompt("Think.").options(o -> o.set(MAX_AUTOPILOT_CONTINUES, 20).set(MAX_AI_CREDITS, 25.0)).run();

            assertThat(run.result.outcome()).as(String.join("\n", run.log.lines())).isEqualTo(Outcome.OVER_BUDGET);
            assertThat(run.result.reason()).contains("AI credits used: ").contains(", limit 25 (maxAiCredits)");
            assertThat(run.result.usage().aiCredits()).isGreaterThanOrEqualTo(30.0);
            assertThat(github.modelCalls().size()).as("stopped soon after the limit, not at the continuation cap").isLessThan(10);
        }
    }

    @Test
    void aBudgetOfThirtyOrMoreIsHandedToTheCliWhichStopsAtTheCallThatReachesIt() throws Exception {
        try (GithubStandIn github = GithubStandIn.start(request -> Reply.text("Still thinking, no task_complete yet.")).creditsPerCall(10)) {
            E2eRun run = E2eRun.withGithub(github).prompt("Think.").options(o -> o.set(MAX_AUTOPILOT_CONTINUES, 20).set(MAX_AI_CREDITS, 30.0)).run();

            assertThat(run.command.commandLine()).contains("--max-ai-credits=30");
            assertThat(run.result.outcome()).as(String.join("\n", run.log.lines())).isEqualTo(Outcome.OVER_BUDGET);
            assertThat(run.result.reason()).contains("AI credits used: 30, limit 30 (maxAiCredits");
            assertThat(run.result.ending().failure()).isNull();
            assertThat(github.modelCalls()).as("the call that reaches the budget is the last").hasSize(3);
            assertThat(run.result.usage().aiCredits()).isEqualTo(30.0);
        }
    }

    @Test
    void anAiCreditQuotaStopsTheSessionAsATokenQuotaDoes() throws Exception {
        UsageLedger ledger = UsageLedger.open(dir.resolve("usage.jsonl"), Clock.system(ZoneId.of("UTC")), 30);
        ledger.record("earlier-run", "team/app", "gpt-5", new Spend(10_000, 1, 12, false));
        List<Quota> quotas = List.of(Quota.folder("team", Quota.Metric.AI_CREDITS, 20, Quota.Window.DAY));
        try (GithubStandIn github = GithubStandIn.start(request -> Reply.text("Still thinking, no task_complete yet.")).creditsPerCall(5)) {
            E2eRun run = E2eRun.withGithub(github).prompt("Think.").options(o -> o.set(MAX_AUTOPILOT_CONTINUES, 20))
                    .spendGuard(counting(ledger, quotas)).run();

            assertThat(run.result.outcome()).as(String.join("\n", run.log.lines())).isEqualTo(Outcome.OVER_BUDGET);
            assertThat(run.result.reason()).contains("the quota of 20 AI credits a day for folder team is reached: ");
            assertThat(github.modelCalls().size()).isLessThan(10);
        } finally {
            ledger.close();
        }
    }
}
