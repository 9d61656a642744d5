package io.jenkins.plugins.copilotautopilot.core.events;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/** Event timestamps: the CLI's {@code 2026-11-30T07:58:47.390Z} read quickly, anything else the slow, general way. */
final class Timestamps {
    private Timestamps() {
    }

    static Instant parse(String text) {
        // yyyy-MM-ddTHH:mm:ss[.fraction]Z, as the CLI writes it
        int n = text.length();
        if (n >= 20 && text.charAt(4) == '-' && text.charAt(7) == '-' && text.charAt(10) == 'T' && text.charAt(13) == ':'
                && text.charAt(16) == ':' && text.charAt(n - 1) == 'Z') {
            int year = digits(text, 0, 4);
            int month = digits(text, 5, 7);
            int day = digits(text, 8, 10);
            int hour = digits(text, 11, 13);
            int minute = digits(text, 14, 16);
            int second = digits(text, 17, 19);
            int nanos = 0;
            boolean ok = year >= 0 && month >= 1 && day >= 1 && hour >= 0 && minute >= 0 && second >= 0;
            if (ok && n > 20) {
                ok = text.charAt(19) == '.' && n - 21 <= 9;
                int fraction = ok ? digits(text, 20, n - 1) : -1;
                ok = ok && fraction >= 0;
                if (ok) {
                    nanos = fraction;
                    for (int i = n - 21; i < 9; i++) {
                        nanos *= 10;
                    }
                }
            }
            if (ok && second < 60) {
                try {
                    return LocalDateTime.of(year, month, day, hour, minute, second, nanos).toInstant(ZoneOffset.UTC);
                } catch (java.time.DateTimeException e) {
                    return null;
                }
            }
            // a leap second (23:59:60) goes the general way, which reads it as the JDK does
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** The number in text[from, to), or -1 when it is not all digits. */
    private static int digits(String text, int from, int to) {
        if (from >= to) {
            return -1;
        }
        int value = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
