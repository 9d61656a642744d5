package io.jenkins.plugins.copilotautopilot.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import io.jenkins.plugins.copilotautopilot.core.session.SessionTracker;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When the session goes on after GitHub's service refused it, and how long it waits first, decided from the stream. */
class ServiceRetriesTest {
    private static final Instant START = Instant.parse("2026-12-06T10:00:00Z");
    private final EventParser parser = new EventParser();
    private final SessionTracker tracker = new SessionTracker();
    private final List<String> notes = new ArrayList<>();

    private ServiceRetries retries(int max, Duration wallClock) {
        return new ServiceRetries(max, wallClock, START, notes::add).follow(tracker);
    }

    private void feed(String line) {
        tracker.accept(parser.parse(line));
    }

    private void retryAt(String time) {
        feed("{\"type\":\"assistant.turn_retry\",\"data\":{\"turnId\":\"0\",\"reason\":\"rate_limit\"},\"ephemeral\":true,\"timestamp\":\""
                + time + "\"}");
    }

    private void refusedAndEnded(int step, String type, int status, String endedAt) {
        feed("{\"type\":\"session.error\",\"data\":{\"errorType\":\"" + type + "\",\"statusCode\":" + status + ",\"message\":\"no\"},"
                + "\"timestamp\":\"" + endedAt + "\"}");
        feed("{\"type\":\"autopilot.awaiting\",\"timestamp\":\"" + endedAt + "\",\"data\":{\"step\":" + step
                + ",\"after\":\"cli\",\"exitCode\":1}}");
    }

    @Test
    void aRateLimitIsRiddenOutAfterTheGapTheServiceAskedTheCliToWait() {
        ServiceRetries retries = retries(2, Duration.ofHours(1));
        retryAt("2026-12-06T10:01:00Z");
        retryAt("2026-12-06T10:01:20Z");
        refusedAndEnded(1, "rate_limit", 429, "2026-12-06T10:01:41Z");

        ServiceRetries.Retry retry = retries.retryAt(1);
        assertThat(retry).isNotNull();
        assertThat(retry.at()).isEqualTo(Instant.parse("2026-12-06T10:02:01Z"));
        assertThat(retry.prompt()).contains("rate-limited your last model call");
        assertThat(tracker.state().firstError()).as("the ridden-out error no longer decides").isNull();
        assertThat(tracker.state().activity()).isEqualTo("while waiting to continue the session after GitHub's service refused it");
        assertThat(notes).containsExactly("GitHub rate-limited the session (HTTP 429) after the Copilot CLI's own retries; waiting 20s,"
                + " then continuing the same session (service retry 1 of 2).");
    }

    @Test
    void theWaitIsBoundedAndNeverPassesTheWallClock() {
        ServiceRetries retries = retries(2, Duration.ofMinutes(10));
        retryAt("2026-12-06T10:01:00Z");
        retryAt("2026-12-06T10:31:00Z"); // a Retry-After of half an hour: five minutes at most
        refusedAndEnded(1, "query", 503, "2026-12-06T10:01:10Z");
        assertThat(retries.retryAt(1)).isNotNull();
        assertThat(retries.retryAt(1).at()).isEqualTo(Instant.parse("2026-12-06T10:06:10Z"));

        retryAt("2026-12-06T10:07:00Z");
        retryAt("2026-12-06T10:08:00Z");
        refusedAndEnded(2, "query", 503, "2026-12-06T10:09:30Z");
        assertThat(retries.retryAt(2)).as("a minute more would pass the 10 minutes").isNull();
        assertThat(tracker.state().firstError()).isNotNull();
        assertThat(notes.get(1)).endsWith("not continuing: waiting 1m would pass the wall-clock limit (10m).");
    }

    @Test
    void onlyWhatPassesIsRiddenOutAndOnlyAsOftenAsAllowed() {
        ServiceRetries retries = retries(1, null);
        refusedAndEnded(1, "quota", 402, "2026-12-06T10:01:00Z");
        assertThat(retries.retryAt(1)).as("a quota does not pass by waiting").isNull();
        assertThat(notes).isEmpty();

        ServiceRetries once = retries(1, null);
        refusedAndEnded(2, "rate_limit", 429, "2026-12-06T10:02:00Z");
        assertThat(once.retryAt(2)).isNotNull();
        refusedAndEnded(3, "rate_limit", 429, "2026-12-06T10:04:00Z");
        assertThat(once.retryAt(3)).isNull();
        assertThat(notes).last().asString().endsWith("not continuing: the session went on once already (serviceRetries 1).");
    }
}
