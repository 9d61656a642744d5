package io.jenkins.plugins.copilotautopilot.core.quota;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** A quota that is reached: which, what was spent against it, and when it frees again. */
public record QuotaReached(Quota quota, String job, double spent, Instant freesAt) {
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z", Locale.ENGLISH); // ROOT gives no zone names on JDK 25

    /** One line: "the quota of 1,000 tokens a day for folder team is reached: 1,200 tokens spent; it frees at 2026-12-03 00:00 UTC". */
    public String describe(ZoneId zone) {
        return quota.describe(job) + " is reached: " + quota.metric().format(spent) + " " + quota.metric().label() + " spent; it frees at "
                + WHEN.format(freesAt.atZone(zone));
    }
}
