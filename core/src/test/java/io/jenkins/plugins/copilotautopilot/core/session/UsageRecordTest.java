package io.jenkins.plugins.copilotautopilot.core.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.events.CliEvent;
import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import org.junit.jupiter.api.Test;

/** The AI credits of a model call as the CLI 1.0.102 writes them into its session state (measured against GitHub's API). */
class UsageRecordTest {

    private static UsageRecord record(String usage) {
        String line = "{\"type\":\"session.usage_record\",\"id\":\"u1\",\"parentId\":\"p\",\"timestamp\":\"2026-12-06T10:00:00.000Z\","
                + "\"data\":{\"usage\":" + usage + "}}";
        return UsageRecord.of((CliEvent) new EventParser().parse(line), 1);
    }

    @Test
    void aCallGithubBilledCarriesItsCreditsInNanoAiu() {
        UsageRecord r = record("{\"model\":\"gpt-5\",\"inputTokens\":1000,\"outputTokens\":20,\"cost\":1,\"isByok\":false,"
                + "\"copilotUsage\":{\"model\":\"gpt-5\",\"totalNanoAiu\":2500000000,\"tokenDetails\":[]},\"aiCreditsStatus\":\"complete\"}");
        assertThat(r.nanoAiu()).isEqualTo(2_500_000_000L);
        assertThat(r.aiCredits()).isEqualTo(2.5);
        assertThat(r.premiumRequests()).isEqualTo(1);
    }

    @Test
    void aCallWithoutAnAmountIsUnknownNotFreeButAnExplicitZeroIsZero() {
        UsageRecord none = record("{\"model\":\"gpt-5\",\"inputTokens\":1000,\"outputTokens\":20,\"cost\":1,"
                + "\"copilotUsage\":{\"totalNanoAiu\":0},\"aiCreditsStatus\":\"unavailable\"}");
        assertThat(none.nanoAiu()).isNull();
        assertThat(none.aiCredits()).isNull();
        UsageRecord byok = record("{\"model\":\"own\",\"inputTokens\":10,\"outputTokens\":2,\"isByok\":true}");
        assertThat(byok.aiCredits()).isNull();
        UsageRecord zero = record("{\"model\":\"gpt-5-mini\",\"inputTokens\":10,\"outputTokens\":2,"
                + "\"copilotUsage\":{\"totalNanoAiu\":0},\"aiCreditsStatus\":\"complete\"}");
        assertThat(zero.aiCredits()).isEqualTo(0.0);
        assertThat(UsageTotals.NONE.plus(zero).plus(none).aiCreditsStatus()).isEqualTo(AiCredits.PARTIAL);
        assertThat(UsageTotals.NONE.plus(none).aiCreditsStatus()).isEqualTo(AiCredits.UNAVAILABLE);
        assertThat(UsageTotals.NONE.aiCreditsStatus()).isNull();
    }

    @Test
    void aCallTheAgentMadeOnItsOwnCostsNoPremiumRequest() {
        assertThat(record("{\"model\":\"gpt-5\",\"cost\":1,\"initiator\":\"user\"}").premiumRequests()).isEqualTo(1);
        assertThat(record("{\"model\":\"gpt-5\",\"cost\":1}").premiumRequests()).isEqualTo(1);
        assertThat(record("{\"model\":\"gpt-5\",\"cost\":1,\"initiator\":\"agent\"}").premiumRequests()).isZero();
    }

    @Test
    void creditsAreWrittenToTheCent() {
        assertThat(AiCredits.format(2.5)).isEqualTo("2.5");
        assertThat(AiCredits.format(1250)).isEqualTo("1,250");
        assertThat(AiCredits.format(0.004)).isEqualTo("<0.01");
        assertThat(AiCredits.format(0)).isEqualTo("0");
        assertThat(AiCredits.format(3.14159)).isEqualTo("3.14");
    }
}
