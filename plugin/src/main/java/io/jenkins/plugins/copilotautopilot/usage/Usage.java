package io.jenkins.plugins.copilotautopilot.usage;

import com.cloudbees.hudson.plugins.folder.AbstractFolder;
import hudson.AbortException;
import hudson.Extension;
import hudson.ExtensionList;
import hudson.init.InitMilestone;
import hudson.init.Initializer;
import hudson.model.ItemGroup;
import hudson.model.Job;
import hudson.model.Run;
import hudson.security.ACL;
import hudson.security.ACLContext;
import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.parts.SpendGuard;
import io.jenkins.plugins.copilotautopilot.core.quota.Quota;
import io.jenkins.plugins.copilotautopilot.core.quota.QuotaReached;
import io.jenkins.plugins.copilotautopilot.core.quota.Spend;
import io.jenkins.plugins.copilotautopilot.core.session.AiCredits;
import io.jenkins.plugins.copilotautopilot.core.session.UsageTotals;
import io.jenkins.plugins.copilotautopilot.core.quota.UsageLedger;
import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.pages.ModelUsageRecord;
import io.jenkins.plugins.copilotautopilot.pages.SessionRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import jenkins.model.Jenkins;
import jenkins.util.Timer;

/**
 * What Copilot sessions spend across runs, and the quotas on it: the usage index ({@link UsageLedger}, one file under
 * {@code JENKINS_HOME}) fed by every session's follower as its usage records come in and by its end, read by the
 * quotas' checks and the usage pages, never by opening builds. When the file is missing it is rebuilt once from the
 * builds' session records.
 */
@Extension
public final class Usage {
    private static final Logger LOGGER = Logger.getLogger(Usage.class.getName());
    /** The index, relative to {@code JENKINS_HOME}. */
    static final String FILE = "copilot-autopilot/usage.jsonl";

    private volatile UsageLedger ledger;
    private volatile boolean shutDown;

    static Usage get() {
        return ExtensionList.lookupSingleton(Usage.class);
    }

    /**
     * The index, opened on first use. A missing file is rebuilt from the builds by the caller that opened it, outside
     * any lock: the others (followers, pages) use the index meanwhile, and what they record is not counted again.
     */
    UsageLedger ledger() throws IOException {
        UsageLedger l = ledger;
        if (l != null) {
            return l;
        }
        UsageLedger opened;
        synchronized (this) {
            if (shutDown) {
                throw new IOException("Jenkins is shutting down: the Copilot usage index is closed");
            }
            if (ledger != null) {
                return ledger;
            }
            Path file = Jenkins.get().getRootDir().toPath().resolve(FILE);
            opened = UsageLedger.open(file, Clock.systemDefaultZone(), QuotaConfiguration.get().retentionDays());
            if (opened.skippedLines() > 0) {
                LOGGER.warning(() -> "the Copilot usage index " + file + " has " + opened.skippedLines() + " damaged lines, left out of every count");
            }
            ledger = opened;
        }
        if (opened.wasMissing()) {
            List<UsageLedger.SessionSummary> sessions = finishedSessions(QuotaConfiguration.get().retentionDays());
            opened.rebuild(sessions);
            LOGGER.info(() -> "the Copilot usage index was missing: rebuilt from " + sessions.size() + " sessions of the builds");
        }
        return opened;
    }

    /**
     * Whether sessions of {@code scope} (a full name) or below it spent anything in the last 30 days, as far as the
     * index knows once it is open (never waits for it: pages ask).
     */
    static boolean ranRecently(String scope) {
        UsageLedger l = get().ledger;
        if (l == null) {
            return false;
        }
        java.time.LocalDate today = java.time.LocalDate.now(l.zone());
        return !l.days(today.minusDays(UsageView.DEFAULT_DAYS - 1L), today, job -> within(scope, job)).isEmpty();
    }

    /** Opens the index once the jobs are loaded (rebuilding it then, off the startup threads, when it is missing). */
    @Initializer(after = InitMilestone.JOB_CONFIG_ADAPTED)
    public static void openSoon() {
        Timer.get().submit(() -> {
            try {
                get().ledger();
            } catch (IOException | RuntimeException e) {
                LOGGER.log(Level.WARNING, "could not open the Copilot usage index", e);
            }
        });
    }

    /** Closes the index for good: sessions still followed while Jenkins stops count no more. */
    @hudson.init.Terminator
    public static void shutDown() {
        if (!ExtensionList.lookup(Usage.class).isEmpty()) {
            Usage usage = get();
            usage.shutDown = true;
            usage.closeIndex();
        }
    }

    /** Closes the index; the next use opens it again (and rebuilds it if its file is gone). */
    synchronized void closeIndex() {
        try {
            if (ledger != null) {
                ledger.close();
            }
        } catch (IOException e) {
            LOGGER.log(Level.FINE, "could not close the Copilot usage index", e);
        }
        ledger = null;
    }

    /** The session's key in the index: the build's id and the step's invocation. */
    static String key(Run<?, ?> run, String invocationId) {
        return run.getExternalizableId() + "/" + invocationId;
    }

    /** Every quota that covers the job: the controller's, then each enclosing folder's, innermost first. */
    static List<Quota> quotas(Job<?, ?> job) {
        return quotasOf(job.getParent());
    }

    /** The quotas that count for what is in {@code group}: the controller's, then the folders' from it outwards. */
    static List<Quota> quotasOf(ItemGroup<?> group) {
        List<Quota> quotas = new ArrayList<>(QuotaConfiguration.get().controllerQuotas());
        ItemGroup<?> parent = group;
        while (parent instanceof AbstractFolder<?> folder) {
            FolderQuotas property = folder.getProperties().get(FolderQuotas.class);
            if (property != null) {
                quotas.addAll(property.quotas());
            }
            parent = folder.getParent();
        }
        return quotas;
    }

    /**
     * Refuses to start a session of {@code run}'s job past a quota that covers it: one line naming the quota, what was
     * spent and when it frees. An index that cannot be read refuses nothing (the line is in the controller's log).
     */
    public static void checkStart(Run<?, ?> run) throws AbortException {
        List<Quota> quotas = quotas(run.getParent());
        if (quotas.isEmpty()) {
            return;
        }
        UsageLedger l;
        try {
            l = get().ledger();
        } catch (IOException e) {
            LOGGER.log(Level.WARNING, "could not read the Copilot usage index; the quotas are not checked", e);
            return;
        }
        QuotaReached reached = l.reached(quotas, run.getParent().getFullName());
        if (reached != null) {
            throw new AbortException(Messages.Usage_NotStarted(reached.describe(l.zone())));
        }
    }

    /**
     * What the follower of {@code run}'s session asks as its usage grows: the totals go into the index, and the first
     * quota that covers the job and is now reached is the reason to stop (OVER_BUDGET), else null.
     */
    public static SpendGuard guard(Run<?, ?> run, String invocationId) {
        String session = key(run, invocationId);
        String job = run.getParent().getFullName();
        Job<?, ?> parent = run.getParent();
        // the model as the CLI names it, as the session's result and its record on the build will: one name for the
        // session whether the index counted it live or was rebuilt from the builds
        return new SpendGuard() {
            @Override
            public String reached(UsageTotals usage, String model) {
                try {
                    UsageLedger l = get().ledger();
                    l.record(session, job, modelName(model), spend(usage));
                    QuotaReached reached = l.reached(quotas(parent), job);
                    return reached == null ? null : reached.describe(l.zone());
                } catch (IOException | RuntimeException e) {
                    LOGGER.log(Level.WARNING, "could not count a Copilot session's usage in the index", e);
                    return null;
                }
            }

            @Override
            public String uncounted(UsageTotals usage) {
                List<String> quotas = quotas(parent).stream().filter(q -> q.metric() == Quota.Metric.AI_CREDITS && q.covers(job))
                        .map(q -> q.describe(job)).toList();
                return quotas.isEmpty() ? null : Messages.Usage_CreditsNotCounted(String.join("; ", quotas));
            }
        };
    }

    private static Spend spend(UsageTotals usage) {
        return new Spend(usage.tokens(), usage.premiumRequests(), usage.aiCredits() == null ? 0 : usage.aiCredits(),
                usage.creditedCalls() < usage.calls());
    }

    /** The session ended: its last totals and its outcome go into the index. */
    public static void ended(Run<?, ?> run, String invocationId, SessionResult result) {
        try {
            UsageLedger l = get().ledger();
            String session = key(run, invocationId);
            l.record(session, run.getParent().getFullName(), modelName(result.ending().model()), spend(result.usage().inputTokens(), result.usage().outputTokens(),
                    result.usage().premiumRequests(), result.usage().aiCredits(), result.usage().aiCreditsStatus()));
            l.end(session, result.outcome().name());
        } catch (IOException | RuntimeException e) {
            LOGGER.log(Level.WARNING, "could not record a Copilot session's end in the usage index", e);
        }
    }

    /** The model as the index names it: as the CLI named it, else "(default)". */
    static String modelName(String model) {
        return model == null || model.isBlank() ? "(default)" : model;
    }

    /**
     * A session's spend from its result or record; its AI credits are missing when a call reported none, or when it
     * has usage but no status (a record of a version before AI credits: unknown, not 0).
     */
    private static Spend spend(Long input, Long output, Double premium, Double aiCredits, String aiCreditsStatus) {
        boolean missing = aiCreditsStatus == null ? input != null || output != null : !AiCredits.COMPLETE.equals(aiCreditsStatus);
        return new Spend((input == null ? 0 : input) + (output == null ? 0 : output), premium == null ? 0 : premium,
                aiCredits == null ? 0 : aiCredits, missing);
    }

    /** The sessions the builds recorded in the last {@code days} days, for a missing index. */
    static List<UsageLedger.SessionSummary> finishedSessions(int days) {
        List<UsageLedger.SessionSummary> sessions = new ArrayList<>();
        long since = System.currentTimeMillis() - Duration.ofDays(days).toMillis();
        try (ACLContext ignored = ACL.as2(ACL.SYSTEM2)) {
            for (Job<?, ?> job : Jenkins.get().allItems(Job.class)) {
                for (Run<?, ?> run : job.getBuilds()) {
                    if (run.getTimeInMillis() < since) {
                        break; // newest first
                    }
                    try {
                        CopilotAutopilotRunAction action = run.getAction(CopilotAutopilotRunAction.class);
                        for (SessionRecord s : action == null ? List.<SessionRecord>of() : action.getSessions()) {
                            // the record keeps no end time: the build's start plus the session's time, an upper bound
                            Instant ended = Instant.ofEpochMilli(run.getStartTimeInMillis() + s.getEnding().getDurationMillis());
                            ModelUsageRecord u = s.getUsage();
                            sessions.add(new UsageLedger.SessionSummary(key(run, s.getInvocationId()), job.getFullName(),
                                    modelName(s.getEnding().getModel()), ended, spend(u.getInputTokens(), u.getOutputTokens(), u.getPremiumRequests(),
                                            u.getAiCredits(), u.getAiCreditsStatus()),
                                    s.getEnding().getOutcome()));
                        }
                    } catch (RuntimeException e) {
                        LOGGER.log(Level.WARNING, "the Copilot usage index leaves out the sessions of " + run + ", which cannot be read", e);
                    }
                }
            }
        }
        return sessions;
    }

    /** Whether {@code job} (a full name) is {@code scope} or below it; every job for a null scope. */
    static boolean within(String scope, String job) {
        return scope == null || job.equals(scope) || job.startsWith(scope + "/");
    }
}
