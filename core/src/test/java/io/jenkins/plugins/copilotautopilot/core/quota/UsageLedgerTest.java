package io.jenkins.plugins.copilotautopilot.core.quota;

import static io.jenkins.plugins.copilotautopilot.core.quota.Quota.Metric.PREMIUM_REQUESTS;
import static io.jenkins.plugins.copilotautopilot.core.quota.Quota.Metric.TOKENS;
import static io.jenkins.plugins.copilotautopilot.core.quota.Quota.Window.DAY;
import static io.jenkins.plugins.copilotautopilot.core.quota.Quota.Window.ROLLING_24H;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UsageLedgerTest {
    private static final ZoneId UTC = ZoneId.of("UTC");
    private static final Instant T0 = Instant.parse("2026-12-02T09:00:00Z");

    @TempDir
    Path dir;

    /** A clock the test moves. */
    static final class TestClock extends Clock {
        private volatile Instant now;
        private final ZoneId zone;

        TestClock(Instant now, ZoneId zone) {
            this.now = now;
            this.zone = zone;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneId getZone() {
            return zone;
        }

        @Override
        public Clock withZone(ZoneId z) {
            return new TestClock(now, z);
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private UsageLedger open(TestClock clock) throws Exception {
        return UsageLedger.open(dir.resolve("usage/ledger.jsonl"), clock, 400);
    }

    @Test
    void concurrentSessionsAreCountedExactlyAndReadBackTheSame() throws Exception {
        TestClock clock = new TestClock(T0, UTC);
        UsageLedger ledger = open(clock);
        int sessions = 16;
        int records = 300;
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int s = 0; s < sessions; s++) {
            String id = "s" + s;
            String job = "team/app-" + (s % 4);
            done.add(pool.submit(() -> {
                go.await();
                for (int r = 1; r <= records; r++) {
                    ledger.record(id, job, "gpt-x", new Spend(r * 10L, r * 0.5));
                }
                ledger.end(id, "COMPLETED");
                return null;
            }));
        }
        go.countDown();
        for (Future<?> f : done) {
            f.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        Quota controller = Quota.controller(TOKENS, 1e12, DAY);
        double expected = sessions * records * 10.0;
        assertThat(ledger.spent(controller, "team/app-0")).isEqualTo(expected);
        assertThat(ledger.spent(Quota.eachJob(TOKENS, 1e12, DAY), "team/app-1")).isEqualTo(expected / 4);
        assertThat(ledger.spent(Quota.controller(PREMIUM_REQUESTS, 1e12, DAY), "x/y")).isEqualTo(sessions * records * 0.5);
        List<UsageLedger.DayUsage> days = ledger.days(LocalDate.of(2026, 12, 2), LocalDate.of(2026, 12, 2), j -> true);
        assertThat(days).hasSize(4);
        assertThat(days).allSatisfy(d -> {
            assertThat(d.sessions()).isEqualTo(4);
            assertThat(d.outcomes()).isEqualTo(Map.of("COMPLETED", 4));
        });
        ledger.close();

        UsageLedger again = open(clock);
        assertThat(again.wasMissing()).isFalse();
        assertThat(again.skippedLines()).isZero();
        assertThat(again.spent(controller, "team/app-0")).isEqualTo(expected);
        assertThat(again.days(LocalDate.of(2026, 12, 2), LocalDate.of(2026, 12, 2), j -> true)).isEqualTo(days);
        // a session followed again after the restart gives the same totals again: nothing is counted twice
        again.record("s0", "team/app-0", "gpt-x", new Spend(records * 10L, records * 0.5));
        again.end("s0", "COMPLETED");
        assertThat(again.spent(controller, "team/app-0")).isEqualTo(expected);
        assertThat(again.days(LocalDate.of(2026, 12, 2), LocalDate.of(2026, 12, 2), "team/app-0"::equals).get(0).outcomes())
                .isEqualTo(Map.of("COMPLETED", 4));
        again.close();
    }

    @Test
    void aQuotaReachedExactlyIsReachedAndSaysWhatWasSpentAndWhenItFrees() throws Exception {
        TestClock clock = new TestClock(T0, UTC);
        UsageLedger ledger = open(clock);
        List<Quota> quotas = List.of(Quota.eachJob(TOKENS, 1000, DAY));
        ledger.record("a", "team/app", "gpt-x", new Spend(999, 0));
        assertThat(ledger.reached(quotas, "team/app")).isNull();
        ledger.record("a", "team/app", "gpt-x", new Spend(1000, 0));
        QuotaReached reached = ledger.reached(quotas, "team/app");
        assertThat(reached).isNotNull();
        assertThat(reached.describe(UTC)).isEqualTo("the quota of 1,000 tokens a day for each job (team/app) is reached: 1,000 tokens"
                + " spent; it frees at 2026-12-03 00:00 UTC");
        // each job on its own: another job has spent nothing
        assertThat(ledger.reached(quotas, "team/other")).isNull();
        // the next day it is free again
        clock.advance(Duration.ofHours(15));
        assertThat(ledger.reached(quotas, "team/app")).isNull();
        ledger.close();
    }

    @Test
    void aFolderCountsTheJobsBelowItTogetherAndNoOthers() throws Exception {
        TestClock clock = new TestClock(T0, UTC);
        UsageLedger ledger = open(clock);
        Quota team = Quota.folder("team/", PREMIUM_REQUESTS, 3, DAY);
        ledger.record("1", "team/a", "m", new Spend(10, 1));
        ledger.record("2", "team/sub/b", "m", new Spend(10, 1.5));
        ledger.record("3", "teamx/c", "m", new Spend(10, 5));
        ledger.record("4", "other/team/d", "m", new Spend(10, 5));
        assertThat(team.covers("team/a")).isTrue();
        assertThat(team.covers("teamx/c")).isFalse();
        assertThat(ledger.spent(team, "team/a")).isEqualTo(2.5);
        assertThat(ledger.reached(List.of(team), "team/a")).isNull();
        assertThat(ledger.reached(List.of(team), "teamx/c")).as("not under the folder").isNull();
        ledger.record("2", "team/sub/b", "m", new Spend(10, 2));
        QuotaReached reached = ledger.reached(List.of(team), "team/sub/b");
        assertThat(reached).isNotNull();
        assertThat(reached.describe(UTC)).startsWith("the quota of 3 premium requests a day for folder team is reached: 3 premium requests spent");

        Quota eachInTeam = Quota.eachJobIn("team", PREMIUM_REQUESTS, 2, DAY);
        assertThat(eachInTeam.covers("teamx/c")).isFalse();
        assertThat(ledger.reached(List.of(eachInTeam), "team/a")).as("team/a spent 1 of its own 2").isNull();
        assertThat(ledger.reached(List.of(eachInTeam), "team/sub/b").describe(UTC))
                .startsWith("the quota of 2 premium requests a day for each job of folder team (team/sub/b) is reached: 2 premium requests spent");
        assertThat(ledger.reached(List.of(eachInTeam), "teamx/c")).as("5 spent, but not below the folder").isNull();
        ledger.close();
    }

    @Test
    void twentyFourHoursFreeAsTheOldestSpendFallsOut() throws Exception {
        TestClock clock = new TestClock(T0, UTC);
        UsageLedger ledger = open(clock);
        Quota quota = Quota.controller(TOKENS, 1000, ROLLING_24H);
        ledger.record("a", "j", "m", new Spend(600, 0));
        clock.advance(Duration.ofHours(2));
        ledger.record("b", "j", "m", new Spend(600, 0));
        clock.advance(Duration.ofHours(1));
        QuotaReached reached = ledger.reached(List.of(quota), "j");
        assertThat(reached).isNotNull();
        assertThat(reached.spent()).isEqualTo(1200);
        assertThat(reached.freesAt()).isEqualTo(T0.plus(Duration.ofHours(24)));
        clock.advance(Duration.ofHours(21).minusMillis(1)); // the first spend is 24 h old less a millisecond
        assertThat(ledger.reached(List.of(quota), "j")).isNotNull();
        clock.advance(Duration.ofMillis(1));
        assertThat(ledger.reached(List.of(quota), "j")).isNull();
        assertThat(ledger.spent(quota, "j")).isEqualTo(600);
        ledger.close();
    }

    @Test
    void aDayIsTheControllersCalendarDay() throws Exception {
        ZoneId berlin = ZoneId.of("Europe/Berlin");
        TestClock clock = new TestClock(Instant.parse("2026-12-02T22:30:00Z"), berlin); // 23:30 in Berlin
        UsageLedger ledger = UsageLedger.open(dir.resolve("l.jsonl"), clock, 400);
        Quota quota = Quota.controller(TOKENS, 100, DAY);
        ledger.record("a", "j", "m", new Spend(100, 0));
        QuotaReached reached = ledger.reached(List.of(quota), "j");
        assertThat(reached.describe(berlin)).endsWith("it frees at 2026-12-03 00:00 CET");
        clock.advance(Duration.ofMinutes(31));
        assertThat(ledger.reached(List.of(quota), "j")).isNull();
        assertThat(ledger.days(LocalDate.of(2026, 12, 2), LocalDate.of(2026, 12, 3), j -> true)).singleElement()
                .satisfies(d -> assertThat(d.day()).isEqualTo(LocalDate.of(2026, 12, 2)));
        ledger.close();
    }

    @Test
    void damagedLinesAreSkippedAndCountedAndTheRestCounts() throws Exception {
        TestClock clock = new TestClock(T0, UTC);
        UsageLedger ledger = open(clock);
        ledger.record("a", "j", "m", new Spend(100, 0));
        ledger.close();
        Path file = dir.resolve("usage/ledger.jsonl");
        Files.write(file, ("not json\n{\"u\":\"b\",\"j\":\"j\"}\n" + "\u00ff".repeat(3) + "\n{\"u\":\"c\",\"j\":\"j\",\"m\":\"m\",\"at\":"
                + T0.toEpochMilli() + ",\"tok\":50,\"pr\":0}\n{\"u\":\"d\",\"j\":\"j\",\"m\":\"m\",\"at\":1").getBytes(StandardCharsets.ISO_8859_1),
                java.nio.file.StandardOpenOption.APPEND);
        UsageLedger again = open(clock);
        assertThat(again.skippedLines()).isEqualTo(4);
        assertThat(again.spent(Quota.controller(TOKENS, 1e9, DAY), "j")).isEqualTo(150);
        again.close();
    }

    @Test
    void aMissingLedgerIsRebuiltFromTheSessionsRecordsOnce() throws Exception {
        TestClock clock = new TestClock(T0, UTC);
        UsageLedger ledger = open(clock);
        assertThat(ledger.wasMissing()).isTrue();
        List<UsageLedger.SessionSummary> finished = List.of(
                new UsageLedger.SessionSummary("b1", "team/app", "gpt-x", T0.minus(Duration.ofDays(1)), new Spend(500, 1), "COMPLETED"),
                new UsageLedger.SessionSummary("b2", "team/app", "gpt-x", T0.minus(Duration.ofHours(1)), new Spend(300, 2), "FAILED"));
        ledger.rebuild(finished);
        ledger.rebuild(finished);
        assertThat(ledger.spent(Quota.controller(TOKENS, 1e9, DAY), "team/app")).isEqualTo(300);
        assertThat(ledger.spent(Quota.controller(TOKENS, 1e9, ROLLING_24H), "team/app")).isEqualTo(300);
        assertThat(ledger.days(LocalDate.of(2026, 12, 1), LocalDate.of(2026, 12, 2), j -> true)).extracting(UsageLedger.DayUsage::tokens,
                UsageLedger.DayUsage::sessions, UsageLedger.DayUsage::outcomes).containsExactly(
                org.assertj.core.groups.Tuple.tuple(500L, 1, Map.of("COMPLETED", 1)), org.assertj.core.groups.Tuple.tuple(300L, 1, Map.of("FAILED", 1)));
        ledger.close();
        assertThat(open(clock).wasMissing()).isFalse();
    }

    @Test
    void aLongFileIsCompactedOnOpenWithTheSameCountsAndOldDaysDropped() throws Exception {
        TestClock clock = new TestClock(T0.minus(Duration.ofDays(500)), UTC);
        UsageLedger ledger = open(clock);
        ledger.record("ancient", "j", "m", new Spend(7, 0));
        ledger.end("ancient", "COMPLETED");
        clock.advance(Duration.ofDays(499));
        for (int i = 1; i <= 6000; i++) {
            ledger.record("old", "j", "m", new Spend(i, 0));
        }
        ledger.end("old", "COMPLETED");
        clock.advance(Duration.ofDays(1));
        for (int i = 1; i <= 6000; i++) {
            ledger.record("new", "j", "m", new Spend(i, 0));
        }
        Quota quota = Quota.controller(TOKENS, 1e9, ROLLING_24H);
        double spent = ledger.spent(quota, "j");
        List<UsageLedger.DayUsage> days = ledger.days(LocalDate.of(2025, 1, 1), LocalDate.of(2026, 12, 31), j -> true);
        ledger.close();
        Path file = dir.resolve("usage/ledger.jsonl");
        long before = Files.size(file);

        UsageLedger again = open(clock);
        assertThat(Files.size(file)).isLessThan(before / 10);
        assertThat(again.spent(quota, "j")).isEqualTo(spent).isEqualTo(6000);
        assertThat(again.days(LocalDate.of(2025, 1, 1), LocalDate.of(2026, 12, 31), j -> true))
                .as("the day 500 days ago is past the retention").isEqualTo(days.subList(1, days.size()));
        // the running session goes on from its totals
        again.record("new", "j", "m", new Spend(6100, 0));
        assertThat(again.spent(quota, "j")).isEqualTo(6100);
        again.close();
        assertThat(open(clock).spent(quota, "j")).isEqualTo(6100);
    }

    @Test
    void csvFieldsAreQuotedAndFormulasDefusedAndOutcomesInOneOrder() {
        Map<String, Integer> outcomes = new java.util.LinkedHashMap<>();
        outcomes.put("FAILED", 1); // as a ledger read back after a restart may hold them
        outcomes.put("COMPLETED", 1);
        List<UsageLedger.DayUsage> rows = List.of(new UsageLedger.DayUsage(LocalDate.of(2026, 12, 2), "=cmd,x", "gpt \"x\"", 10, 1.5, 2,
                outcomes, 7.25, 0));
        assertThat(UsageExport.csv(rows)).isEqualTo("day,job,model,aiCredits,tokens,premiumRequests,sessions,sessionsWithoutAiCredits,outcomes\n"
                + "2026-12-02,\"'=cmd,x\",\"gpt \"\"x\"\"\",7.25,10,1.5,2,0,COMPLETED=1;FAILED=1\n");
        assertThat(UsageExport.json(rows)).isEqualTo("[{\"day\":\"2026-12-02\",\"job\":\"=cmd,x\",\"model\":\"gpt \\\"x\\\"\",\"aiCredits\":7.25,"
                + "\"tokens\":10,\"premiumRequests\":1.5,\"sessions\":2,\"sessionsWithoutAiCredits\":0,\"outcomes\":{\"COMPLETED\":1,\"FAILED\":1}}]");
    }

    @Test
    void aiCreditsAreCountedAndReadBackAndAQuotaOfThemStopsButUnreportedCreditsAreNoZero() throws Exception {
        TestClock clock = new TestClock(T0, UTC);
        UsageLedger ledger = open(clock);
        Quota quota = Quota.controller(Quota.Metric.AI_CREDITS, 10, Quota.Window.DAY);
        ledger.record("a", "j", "gpt-5", new Spend(1000, 1, 2.5, false));
        ledger.record("a", "j", "gpt-5", new Spend(2000, 2, 7.5, false));
        assertThat(ledger.spent(quota, "j")).isEqualTo(7.5);
        assertThat(ledger.reached(List.of(quota), "j")).isNull();
        ledger.record("byok", "j", "own", new Spend(50_000, 0, 0, true));
        ledger.record("b", "j", "gpt-5", new Spend(100, 0, 2.5, false));
        QuotaReached reached = ledger.reached(List.of(quota), "j");
        assertThat(reached).isNotNull();
        assertThat(reached.describe(UTC)).startsWith("the quota of 10 AI credits a day for the controller is reached: 10 AI credits spent");
        ledger.close();

        UsageLedger again = open(clock);
        assertThat(again.spent(quota, "j")).isEqualTo(10);
        List<UsageLedger.DayUsage> rows = again.days(LocalDate.of(2000, 1, 1), LocalDate.of(2100, 1, 1), j -> true);
        UsageLedger.DayUsage gpt = rows.stream().filter(r -> r.model().equals("gpt-5")).findFirst().orElseThrow();
        UsageLedger.DayUsage own = rows.stream().filter(r -> r.model().equals("own")).findFirst().orElseThrow();
        assertThat(gpt.knownAiCredits()).isEqualTo(10);
        assertThat(gpt.sessionsWithoutAiCredits()).isZero();
        assertThat(own.knownAiCredits()).as("a provider that reports no credits is not free").isNull();
        assertThat(own.sessionsWithoutAiCredits()).isEqualTo(1);
        assertThat(UsageExport.csv(List.of(own))).contains(",own,,50000,0,1,1,");
        again.close();
    }

    @Test
    void linesOfVersionsBeforeAiCreditsReadAsNoneReportedAndAReportedZeroStaysAZero() throws Exception {
        TestClock clock = new TestClock(T0, UTC);
        Path file = dir.resolve("usage/ledger.jsonl");
        Files.createDirectories(file.getParent());
        long at = T0.toEpochMilli();
        // as a version before AI credits wrote them: a session's totals and end, and a compacted day
        Files.writeString(file, "{\"u\":\"old\",\"j\":\"j\",\"m\":\"gpt-5\",\"at\":" + at + ",\"tok\":500,\"pr\":1}\n"
                + "{\"e\":\"old\",\"at\":" + at + ",\"o\":\"COMPLETED\"}\n"
                + "{\"d\":\"2026-12-01\",\"j\":\"j\",\"m\":\"gpt-5\",\"tok\":900,\"pr\":2,\"n\":3,\"o\":{\"COMPLETED\":3}}\n"
                + "{\"d\":\"2026-11-30\",\"j\":\"j\",\"m\":\"gpt-5\",\"tok\":900,\"pr\":2,\"cr\":4.5,\"n\":2,\"nc\":1,\"o\":{}}\n");
        UsageLedger ledger = open(clock);
        ledger.record("free", "j", "free-model", new Spend(100, 0, 0, false)); // every call reported 0: known, free
        ledger.close();

        UsageLedger again = open(clock);
        List<UsageLedger.DayUsage> rows = again.days(LocalDate.of(2026, 11, 1), LocalDate.of(2026, 12, 31), j -> true);
        UsageLedger.DayUsage today = rows.stream().filter(r -> r.day().equals(LocalDate.of(2026, 12, 2)) && r.model().equals("gpt-5"))
                .findFirst().orElseThrow();
        assertThat(today.knownAiCredits()).as("an old session is unknown, not free").isNull();
        assertThat(today.sessionsWithoutAiCredits()).isEqualTo(1);
        UsageLedger.DayUsage oldDay = rows.stream().filter(r -> r.day().equals(LocalDate.of(2026, 12, 1))).findFirst().orElseThrow();
        assertThat(oldDay.knownAiCredits()).isNull();
        assertThat(oldDay.sessionsWithoutAiCredits()).isEqualTo(3);
        UsageLedger.DayUsage newDay = rows.stream().filter(r -> r.day().equals(LocalDate.of(2026, 11, 30))).findFirst().orElseThrow();
        assertThat(newDay.knownAiCredits()).isEqualTo(4.5);
        assertThat(newDay.sessionsWithoutAiCredits()).isEqualTo(1);
        UsageLedger.DayUsage free = rows.stream().filter(r -> r.model().equals("free-model")).findFirst().orElseThrow();
        assertThat(free.knownAiCredits()).as("a reported 0 is read back as 0").isEqualTo(0.0);
        assertThat(free.sessionsWithoutAiCredits()).isZero();
        assertThat(Files.readString(file)).contains("\"u\":\"free\"").contains("\"cr\":0.0");
        again.close();
    }
}
