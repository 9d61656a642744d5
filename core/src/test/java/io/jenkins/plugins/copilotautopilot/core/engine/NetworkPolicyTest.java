package io.jenkins.plugins.copilotautopilot.core.engine;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.testing.E2eRun;
import io.jenkins.plugins.copilotautopilot.core.testing.FileServer;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The CLI's URL rules ({@code allowUrls}/{@code denyUrls}): a fetch the rules allow reaches its server, a denied one
 * does not and is reported (log, result); every allowed tool still meets the deny list. The real CLI 1.0.102 and
 * curl against a server on 127.0.0.1.
 */
class NetworkPolicyTest {

    @Test
    void anAllowedUrlIsFetched() throws Exception {
        try (FileServer web = FileServer.start().serve("/ok", "fetched-ok".getBytes(StandardCharsets.UTF_8))) {
            String origin = web.baseUrl();
            E2eRun run = E2eRun.with(Scripts.bashThenComplete("curl -s " + origin + "/ok", "Fetched."))
                    .options(o -> o.add(ALLOW_TOOLS, "shell").add(ALLOW_URLS, origin))
                    .run();

            assertThat(run.result.outcome()).isEqualTo(Outcome.COMPLETED);
            assertThat(web.hits("/ok")).isEqualTo(1);
            assertThat(run.result.activity().deniedFetches()).isZero();
            assertThat(run.log.lines()).contains("[copilot] Network: " + origin + " only");
            assertThat(run.command.commandLine()).contains("--allow-url=" + origin);
        }
    }

    @Test
    void aDeniedUrlIsNotFetchedAndIsReportedEvenWithEveryToolAllowed() throws Exception {
        try (FileServer web = FileServer.start().serve("/secret", "never".getBytes(StandardCharsets.UTF_8))) {
            String origin = web.baseUrl();
            E2eRun run = E2eRun.with(Scripts.bashThenComplete("curl -s " + origin + "/secret", "Tried."))
                    .options(o -> o.set(ALLOW_ALL_TOOLS, true).add(DENY_URLS, origin))
                    .run();

            assertThat(web.hits("/secret")).isZero();
            assertThat(run.result.activity().deniedToolCalls()).isEqualTo(1);
            assertThat(run.result.activity().deniedFetches()).isEqualTo(1);
            assertThat(run.result.activity().deniedUrls()).containsExactly(origin);
            assertThat(run.result.toMap()).containsEntry("deniedFetches", 1);
            assertThat(run.log.lines()).contains("[copilot] Network: any URL (every tool is allowed), never " + origin);
            assertThat(run.log.lines()).anyMatch(l -> l.startsWith("[copilot]   < bash DENIED") && l.contains("(network: " + origin + ")"));
            assertThat(run.log.lines()).contains("[copilot] Network: 1 tool call denied for a URL: " + origin);
        }
    }

    @Test
    void withoutEveryToolAllowedAUrlNoRuleAllowsIsDeniedAsAUrl() throws Exception {
        try (FileServer web = FileServer.start().serve("/other", "never".getBytes(StandardCharsets.UTF_8))) {
            String origin = web.baseUrl();
            E2eRun run = E2eRun.with(Scripts.bashThenComplete("curl -s " + origin + "/other", "Tried."))
                    .options(o -> o.add(ALLOW_TOOLS, "shell"))
                    .run();

            assertThat(web.hits("/other")).isZero();
            assertThat(run.result.activity().deniedFetches()).isEqualTo(1);
            assertThat(run.result.activity().deniedUrls()).containsExactly(origin + "/other");
        }
    }
}
