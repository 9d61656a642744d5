package io.jenkins.plugins.copilotautopilot.core.quota;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.MAX_AUTOPILOT_CONTINUES;
import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.testing.E2eRun;
import io.jenkins.plugins.copilotautopilot.core.testing.ProcessTable;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A quota across runs stops the session that crosses it, with the real CLI, as the plugin's guard counts it. */
class QuotaStopTest {
    @TempDir
    Path dir;

    @Test
    void aSessionThatCrossesAQuotaWithAnEarlierRunsSpendIsStoppedOverBudgetNamingIt() throws Exception {
        UsageLedger ledger = UsageLedger.open(dir.resolve("ledger.jsonl"), Clock.system(ZoneId.of("UTC")), 400);
        ledger.record("earlier-run", "team/app", "fake-model", new Spend(10_000, 0));
        ledger.end("earlier-run", "COMPLETED");
        List<Quota> quotas = List.of(Quota.folder("team", Quota.Metric.TOKENS, 12_000, Quota.Window.DAY));

        java.util.Set<String> modelsAsked = java.util.concurrent.ConcurrentHashMap.newKeySet();
        E2eRun run = E2eRun.with(request -> Reply.text("Still thinking, no task_complete yet.").withUsage(5000, 100))
                .options(o -> o.set(MAX_AUTOPILOT_CONTINUES, 20))
                .spendGuard((usage, model) -> {
                    modelsAsked.add(String.valueOf(model));
                    try {
                        ledger.record("this-run", "team/app", String.valueOf(model), new Spend(usage.tokens(), usage.premiumRequests()));
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                    QuotaReached reached = ledger.reached(quotas, "team/app");
                    return reached == null ? null : reached.describe(ledger.zone());
                })
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.OVER_BUDGET);
        assertThat(run.result.reason()).matches("Stopped .*: the quota of 12,000 tokens a day for folder team is reached: (15,100|20,200)"
                + " tokens spent; it frees at \\d{4}-\\d{2}-\\d{2} 00:00 UTC; the Copilot CLI was stopped\\.");
        assertThat(ProcessTable.survivorsOf(run.runId)).isEmpty();
        assertThat(ledger.spent(quotas.get(0), "team/app")).isGreaterThanOrEqualTo(15_100);
        // the guard is told the model as the CLI named it, which the session's result names too: the index counts
        // the session under one model, live and when rebuilt from the builds
        assertThat(run.result.ending().model()).isNotBlank();
        assertThat(modelsAsked).containsExactly(run.result.ending().model());
        ledger.close();
    }
}
