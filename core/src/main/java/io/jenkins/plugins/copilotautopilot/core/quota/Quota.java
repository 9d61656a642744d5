package io.jenkins.plugins.copilotautopilot.core.quota;

import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.util.Locale;

/**
 * A limit on what sessions spend across runs: of one metric, over one window, for one scope (the whole controller, a
 * folder with everything in it, or each job on its own).
 *
 * @param folder the folder's full name for {@link Target#FOLDER} (as Jenkins writes it: {@code team/app}); for
 *               {@link Target#EACH_JOB}, the folder whose jobs it limits each (null: every job); else null
 */
public record Quota(Target target, String folder, Metric metric, double limit, Window window) {
    /** Whose spend the limit counts. */
    public enum Target {
        CONTROLLER,
        FOLDER,
        EACH_JOB
    }

    /** What is counted. */
    public enum Metric {
        AI_CREDITS("AI credits"),
        TOKENS("tokens"),
        PREMIUM_REQUESTS("premium requests");

        private final String label;

        Metric(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        /** An amount of it as the log writes it: tokens with thousands separators, AI credits to the cent. */
        public String format(double amount) {
            return switch (this) {
                case TOKENS -> String.format(Locale.ROOT, "%,d", (long) amount);
                case AI_CREDITS -> Texts.credits(amount);
                case PREMIUM_REQUESTS -> Texts.number(amount);
            };
        }
    }

    /** Over which time the spend is counted. */
    public enum Window {
        /** The calendar day in the controller's time zone: frees at midnight. */
        DAY,
        /** The 24 hours before now: frees as the oldest spend falls out. */
        ROLLING_24H
    }

    public Quota {
        if (target == null || metric == null || window == null) {
            throw new IllegalArgumentException("a quota needs a target, a metric and a window");
        }
        if (target == Target.FOLDER && (folder == null || folder.isBlank())) {
            throw new IllegalArgumentException("a folder's quota needs the folder's full name");
        }
        if (!(limit >= 0) || Double.isInfinite(limit)) {
            throw new IllegalArgumentException("a quota's limit must be a number of 0 or more, not " + limit);
        }
        folder = target == Target.FOLDER || (target == Target.EACH_JOB && folder != null && !folder.isBlank()) ? strip(folder) : null;
    }

    public static Quota controller(Metric metric, double limit, Window window) {
        return new Quota(Target.CONTROLLER, null, metric, limit, window);
    }

    public static Quota folder(String fullName, Metric metric, double limit, Window window) {
        return new Quota(Target.FOLDER, fullName, metric, limit, window);
    }

    public static Quota eachJob(Metric metric, double limit, Window window) {
        return new Quota(Target.EACH_JOB, null, metric, limit, window);
    }

    /** A limit for each job below the folder {@code fullName} on its own. */
    public static Quota eachJobIn(String fullName, Metric metric, double limit, Window window) {
        return new Quota(Target.EACH_JOB, fullName, metric, limit, window);
    }

    /** Whether a session of the job {@code job} (its full name) counts against this quota. */
    public boolean covers(String job) {
        return switch (target) {
            case CONTROLLER -> true;
            case EACH_JOB -> folder == null || job.startsWith(folder + "/");
            case FOLDER -> job.startsWith(folder + "/");
        };
    }

    /** Whether the job's spend is counted with the other job's (both under this quota's limit together). */
    boolean countsTogether(String job, String otherJob) {
        return target == Target.EACH_JOB ? job.equals(otherJob) : covers(otherJob);
    }

    /** As the log and the pages name it: "the quota of 1,000,000 tokens a day for folder team/app". */
    public String describe(String job) {
        String amount = metric.format(limit);
        String whose = switch (target) {
            case CONTROLLER -> "the controller";
            case FOLDER -> "folder " + folder;
            case EACH_JOB -> (folder == null ? "each job (" : "each job of folder " + folder + " (") + job + ")";
        };
        return "the quota of " + amount + " " + metric.label + " " + (window == Window.DAY ? "a day" : "in 24 hours") + " for " + whose;
    }

    private static String strip(String name) {
        String s = name.strip();
        while (s.endsWith("/")) {
            s = s.substring(0, s.length() - 1);
        }
        return s;
    }
}
