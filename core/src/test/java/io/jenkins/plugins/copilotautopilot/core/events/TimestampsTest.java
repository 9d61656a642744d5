package io.jenkins.plugins.copilotautopilot.core.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TimestampsTest {

    @Test
    void readsTheCliFormatExactly() {
        assertThat(Timestamps.parse("2026-11-30T07:58:47.390Z")).isEqualTo(Instant.parse("2026-11-30T07:58:47.390Z"));
        assertThat(Timestamps.parse("2026-11-30T07:58:47Z")).isEqualTo(Instant.parse("2026-11-30T07:58:47Z"));
        assertThat(Timestamps.parse("2026-11-30T07:58:47.123456789Z")).isEqualTo(Instant.parse("2026-11-30T07:58:47.123456789Z"));
        assertThat(Timestamps.parse("2026-11-30T07:58:47.5Z")).isEqualTo(Instant.parse("2026-11-30T07:58:47.500Z"));
    }

    @Test
    void agreesWithTheJdkOnRandomInstants() {
        Random random = new Random(42);
        for (int i = 0; i < 10_000; i++) {
            Instant instant = Instant.ofEpochSecond(random.nextInt(2_000_000_000) + 1_000_000_000L, random.nextInt(1000) * 1_000_000L);
            assertThat(Timestamps.parse(instant.toString())).isEqualTo(instant);
        }
    }

    @Test
    void aLeapSecondIsReadAsTheJdkReadsIt() {
        assertThat(Timestamps.parse("2016-12-31T23:59:60Z")).isNotNull().isEqualTo(Instant.parse("2016-12-31T23:59:60Z"));
        assertThat(Timestamps.parse("2016-12-31T23:59:60.250Z")).isEqualTo(Instant.parse("2016-12-31T23:59:60.250Z"));
    }

    @Test
    void otherIsoFormsGoTheSlowWayAndNonsenseIsNull() {
        assertThat(Timestamps.parse("2026-11-30T09:58:47+02:00")).isEqualTo(Instant.parse("2026-11-30T07:58:47Z"));
        assertThat(Timestamps.parse("2026-02-30T07:58:47.000Z")).as("no 30 February").isNull();
        assertThat(Timestamps.parse("2026-11-30T25:58:47.000Z")).isNull();
        assertThat(Timestamps.parse("2026-11-30T07:58:47.1234567890Z")).isNull();
        assertThat(Timestamps.parse("2026-11-30T07:58:47,390Z")).isNull();
        assertThat(Timestamps.parse("abcd-11-30T07:58:47.390Z")).isNull();
        assertThat(Timestamps.parse("yesterday")).isNull();
        assertThat(Timestamps.parse("")).isNull();
    }
}
