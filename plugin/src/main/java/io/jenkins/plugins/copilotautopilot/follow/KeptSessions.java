package io.jenkins.plugins.copilotautopilot.follow;

import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.agent.AgentSession;
import io.jenkins.plugins.copilotautopilot.agent.TimeLimits;
import io.jenkins.plugins.copilotautopilot.session.SessionPolicy;

import hudson.FilePath;
import hudson.model.Job;
import hudson.model.Run;
import hudson.model.TaskListener;
import io.jenkins.plugins.copilotautopilot.core.files.OwnerOnlyFiles;
import io.jenkins.plugins.copilotautopilot.core.kept.KeptSessionState;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.text.DateFormat;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Date;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * Sessions that continue in a later build ({@code session: 'pr-42'}): the CLI's state of a named session, packed by
 * the launch script at the session's end, kept in the job's own folder on the controller
 * ({@code JOB/copilot-sessions/NAME.tgz} and {@code NAME.properties}), so that it goes with a renamed job and is
 * deleted with a deleted one. The state crosses from one build to another made fit for it
 * ({@link KeptSessionState#sanitize}): without the earlier build's working directory (the CLI would change into it),
 * with what tools printed masked as the journal masks it, and checked to unpack inside its folder; the folder and its
 * files are readable by the controller's user only, and no page serves them. Kept for
 * as many days, at most as many per job (the oldest go first) and of at most as many MB each as the administrator's
 * {@link SessionPolicy#keptSessions()} say.
 */
public final class KeptSessions {
    public static final String FOLDER = "copilot-sessions";

    private KeptSessions() {
    }

    public static File folder(Job<?, ?> job) {
        return new File(job.getRootDir(), FOLDER);
    }

    /** The kept state of {@code name} for this build's job, or null (the log says why a new session starts). */
    public static synchronized byte[] load(Run<?, ?> run, String name, TaskListener listener) throws IOException {
        File dir = folder(run.getParent());
        File state = new File(dir, name + ".tgz");
        Properties meta = meta(new File(dir, name + ".properties"));
        if (!state.isFile()) {
            listener.getLogger().println(Messages.KeptSessions_None(name));
            return null;
        }
        long savedAt = Long.parseLong(meta.getProperty("savedAt", "0"));
        int days = SessionPolicy.get().keptSessions().days();
        if (System.currentTimeMillis() - savedAt > TimeUnit.DAYS.toMillis(days)) {
            delete(dir, name);
            listener.getLogger().println(Messages.KeptSessions_Expired(name, meta.getProperty("build", "?"), when(savedAt), days));
            return null;
        }
        byte[] bytes;
        try {
            bytes = KeptSessionState.sanitize(Files.readAllBytes(state.toPath()), SecretMasker.none());
        } catch (KeptSessionState.UnusableStateException e) {
            delete(dir, name);
            listener.getLogger().println(Messages.KeptSessions_Unusable(name, e.getMessage()));
            return null;
        }
        listener.getLogger().println(Messages.KeptSessions_Continuing(name, meta.getProperty("build", "?"), when(savedAt),
                megabytes(bytes.length)));
        return bytes;
    }

    /** The largest state a session may keep, in bytes. */
    static long limitBytes() {
        return SessionPolicy.get().keptSessions().bytes();
    }

    /**
     * Keeps the state the launch script packed as {@code name}'s, replacing what was kept, then forgets expired and
     * surplus sessions of the job: the state durable-task's watch handed over at the end, else the packed file in the
     * control folder (read from the agent within a time limit).
     */
    static void save(Run<?, ?> run, String name, AgentSession session, SecretMasker masker, TaskListener listener)
            throws IOException, InterruptedException {
        long limit = limitBytes();
        byte[] bytes = session.handedOverKeptSession();
        if (bytes == null && session.handedOverKeptSessionSize() > 0) {
            bytes = new byte[0]; // too large to hand over
        } else if (bytes == null) {
            bytes = read(name, session.keptSession(), limit);
        }
        if (bytes == null) {
            listener.getLogger().println(Messages.KeptSessions_NothingToKeep(name));
            return;
        }
        if (bytes.length == 0 || bytes.length > limit) {
            listener.getLogger().println(Messages.KeptSessions_TooLarge(name, SessionPolicy.get().keptSessions().megabytes()));
            return;
        }
        try {
            bytes = KeptSessionState.sanitize(bytes, masker);
        } catch (KeptSessionState.UnusableStateException e) {
            listener.getLogger().println(Messages.KeptSessions_Unusable(name, e.getMessage()));
            return;
        }
        write(run, name, bytes);
        listener.getLogger().println(Messages.KeptSessions_Kept(name, megabytes(bytes.length)));
    }

    /** The packed file in a control folder that is still there (sessions followed by polling), or null. */
    private static byte[] read(String name, FilePath packed, long limit) throws IOException, InterruptedException {
        return TimeLimits.limit(packed.getChannel(), AgentSession.REMOTE_TIMEOUT_SECONDS,
                Messages.KeptSessions_Fetching(name), () -> {
                    if (!packed.exists()) {
                        return null;
                    }
                    if (packed.length() > limit) {
                        return new byte[0];
                    }
                    try (InputStream in = packed.read()) {
                        return in.readNBytes((int) limit + 1);
                    } catch (java.nio.file.NoSuchFileException e) {
                        return null;
                    }
                });
    }

    private static synchronized void write(Run<?, ?> run, String name, byte[] bytes) throws IOException {
        File dir = folder(run.getParent());
        OwnerOnlyFiles.ownFolder(dir.toPath());
        OwnerOnlyFiles.write(new File(dir, name + ".tgz").toPath(), bytes);
        Properties meta = new Properties();
        meta.setProperty("build", Integer.toString(run.getNumber()));
        meta.setProperty("savedAt", Long.toString(System.currentTimeMillis()));
        java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
        meta.store(text, "a Copilot session kept for the next build");
        OwnerOnlyFiles.write(new File(dir, name + ".properties").toPath(), text.toByteArray());
        prune(dir, name);
    }

    /** Forgets expired sessions, then the least recently kept beyond the number a job may keep (never {@code keep}). */
    private static void prune(File dir, String keep) throws IOException {
        SessionPolicy.KeptSessionLimits config = SessionPolicy.get().keptSessions();
        File[] files = dir.listFiles((d, n) -> n.endsWith(".tgz"));
        if (files == null) {
            return;
        }
        List<String> names = new ArrayList<>();
        for (File f : files) {
            names.add(f.getName().substring(0, f.getName().length() - 4));
        }
        long oldest = System.currentTimeMillis() - TimeUnit.DAYS.toMillis(config.days());
        names.sort(Comparator.comparingLong((String n) -> savedAt(dir, n)).reversed());
        for (int i = 0; i < names.size(); i++) {
            String n = names.get(i);
            if (!n.equals(keep) && (savedAt(dir, n) < oldest || i >= config.perJob())) {
                delete(dir, n);
            }
        }
    }

    private static long savedAt(File dir, String name) {
        try {
            return Long.parseLong(meta(new File(dir, name + ".properties")).getProperty("savedAt", "0"));
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    private static void delete(File dir, String name) throws IOException {
        Files.deleteIfExists(new File(dir, name + ".tgz").toPath());
        Files.deleteIfExists(new File(dir, name + ".properties").toPath());
    }

    private static Properties meta(File file) throws IOException {
        Properties p = new Properties();
        if (file.isFile()) {
            try (InputStream in = Files.newInputStream(file.toPath())) {
                p.load(in);
            }
        }
        return p;
    }

    private static String when(long millis) {
        return DateFormat.getDateTimeInstance(DateFormat.MEDIUM, DateFormat.SHORT).format(new Date(millis));
    }

    private static String megabytes(long bytes) {
        return bytes < 1024 * 1024 ? Math.max(1, (bytes + 1023) / 1024) + " KB"
                : String.format(java.util.Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024.0));
    }
}
