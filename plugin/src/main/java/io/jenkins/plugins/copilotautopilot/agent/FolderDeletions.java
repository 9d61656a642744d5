package io.jenkins.plugins.copilotautopilot.agent;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import hudson.Extension;
import hudson.ExtensionList;
import hudson.FilePath;
import hudson.init.InitMilestone;
import hudson.init.Initializer;
import io.jenkins.plugins.copilotautopilot.core.files.OwnerOnlyFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import jenkins.model.Jenkins;
import org.jenkinsci.plugins.workflow.FilePathUtils;

/**
 * A session's folders deleted in the background, every {@value #RETRY_SECONDS} s, once its agent answers: what an
 * ended session or a launch that failed leaves when the agent does not answer then. A CLI that did start stops once
 * its control folder is gone (its watchdog ends it), so this also stops a CLI whose launch was answered by a broken
 * channel, or whose agent was away when its build ended. The folders still to delete are kept in a file under
 * {@code JENKINS_HOME}, so that a controller restart does not forget them. Each try runs on {@link AgentCalls#pool()},
 * bounded in time by the call it makes.
 */
@Extension
public final class FolderDeletions {
    private static final Logger LOGGER = Logger.getLogger(FolderDeletions.class.getName());
    /** How long between two tries (mutable for tests). */
    @SuppressFBWarnings(value = "MS_SHOULD_BE_FINAL", justification = "tunable in tests")
    static long RETRY_SECONDS = 15;
    /** Two hours of tries: past the wall-clock limit of most sessions, when their watchdog has ended the CLI anyway. */
    private static final long GIVE_UP_AFTER_MILLIS = TimeUnit.HOURS.toMillis(2);
    /**
     * The folders still to delete, relative to {@code JENKINS_HOME}: one line each, {@code since<TAB>node<TAB>path}, and
     * {@code <TAB>runId} when the session's run marker is known.
     */
    static final String FILE = "copilot-autopilot/folders-to-delete.txt";

    /**
     * The session whose launch folder is {@code launchFolder} on {@code node} ("" for the built-in node), since when, and
     * its run marker (null: not known), with which what still carries it is ended as the folders are deleted.
     */
    record Pending(String node, String launchFolder, long sinceMillis, String runId) {
        String line() {
            return sinceMillis + "\t" + node + "\t" + launchFolder + (runId == null ? "" : "\t" + runId);
        }

        static Pending parse(String line) {
            String[] parts = line.split("\t", 4);
            if (parts.length < 3) {
                return null;
            }
            try {
                return new Pending(parts[1], parts[2], Long.parseLong(parts[0]), parts.length > 3 ? parts[3] : null);
            } catch (NumberFormatException e) {
                return null;
            }
        }

        String describe() {
            return launchFolder + " on " + (node.isEmpty() ? "the built-in node" : node);
        }
    }

    /**
     * The sessions of builds that do not survive the controller (Freestyle) while they run, one line each as
     * {@link #FILE}'s: a restart that finds one here lost its build, and deletes its folders, which stops its CLI.
     */
    static final String RUNNING_FILE = "copilot-autopilot/sessions-of-builds-a-restart-ends.txt";

    private final Set<Pending> pending = new LinkedHashSet<>();
    private final Set<Pending> running = new LinkedHashSet<>();

    /** Deletes the folders of the session launched in {@code launchFolder} on {@code node} once the agent answers. */
    public static void later(String node, String launchFolder) {
        later(node, launchFolder, null);
    }

    /** {@link #later(String, String)}, ending what carries the session's run marker {@code runId} (null: unknown) too. */
    public static void later(String node, String launchFolder, String runId) {
        FolderDeletions deletions = ExtensionList.lookupSingleton(FolderDeletions.class);
        Pending p = new Pending(node, launchFolder, System.currentTimeMillis(), runId);
        synchronized (deletions) {
            deletions.pending.add(p);
            deletions.save(FILE, deletions.pending);
        }
        deletions.schedule(p);
    }

    /**
     * The session launched in {@code launchFolder} on {@code node} runs in a build that ends with the controller
     * (Freestyle): if the controller dies before {@link #buildEnded} (a {@code kill -9}), the restarted one deletes its
     * folders, which stops its CLI instead of letting it run on for nobody.
     */
    public static void whileItsBuildRuns(String node, String launchFolder) {
        FolderDeletions deletions = ExtensionList.lookupSingleton(FolderDeletions.class);
        synchronized (deletions) {
            deletions.running.add(new Pending(node, launchFolder, 0, null));
            deletions.save(RUNNING_FILE, deletions.running);
        }
    }

    /** The build of a session noted by {@link #whileItsBuildRuns} has ended it: its own end deleted its folders. */
    public static void buildEnded(String node, String launchFolder) {
        FolderDeletions deletions = ExtensionList.lookupSingleton(FolderDeletions.class);
        synchronized (deletions) {
            if (deletions.running.remove(new Pending(node, launchFolder, 0, null))) {
                deletions.save(RUNNING_FILE, deletions.running);
            }
        }
    }

    /**
     * After a restart: the deletions the controller had not done when it stopped are tried again, and the folders of
     * sessions whose builds died with it are deleted.
     */
    @Initializer(after = InitMilestone.JOB_CONFIG_ADAPTED)
    public static void continueAfterRestart() {
        FolderDeletions deletions = ExtensionList.lookupSingleton(FolderDeletions.class);
        List<Pending> loaded = new ArrayList<>(load(FILE));
        long now = System.currentTimeMillis();
        for (Pending lost : load(RUNNING_FILE)) {
            LOGGER.info(() -> "deleting the folders of a Copilot session whose build ended with the controller: " + lost.describe());
            loaded.add(new Pending(lost.node(), lost.launchFolder(), now, lost.runId()));
        }
        synchronized (deletions) {
            deletions.pending.addAll(loaded);
            deletions.save(FILE, deletions.pending);
            deletions.save(RUNNING_FILE, deletions.running);
        }
        loaded.forEach(deletions::schedule);
    }

    private void schedule(Pending p) {
        jenkins.util.Timer.get().schedule(() -> AgentCalls.pool().submit(() -> tryOnce(p)), RETRY_SECONDS, TimeUnit.SECONDS);
    }

    private void tryOnce(Pending p) {
        boolean settled = settled(p);
        if (!settled && System.currentTimeMillis() - p.sinceMillis() < GIVE_UP_AFTER_MILLIS) {
            schedule(p);
            return;
        }
        if (!settled) {
            LOGGER.warning(() -> "gave up deleting " + p.describe() + ": its agent did not answer for two hours");
        }
        synchronized (this) {
            pending.remove(p);
            save(FILE, pending);
        }
    }

    /** One try: true when it is settled (deleted, or the agent answered that it cannot), false to try again. */
    private static boolean settled(Pending p) {
        FilePath folder = FilePathUtils.find(p.node(), p.launchFolder());
        if (folder == null) {
            return false; // offline
        }
        try {
            AgentStops.deleteFolders(folder, p.runId());
        } catch (FoldersNotDeletedException e) {
            LOGGER.warning(() -> "could not delete " + p.describe() + ": " + e.getMessage());
        } catch (IOException | InterruptedException | RuntimeException e) {
            return false;
        }
        return true;
    }

    private static Path file(String name) {
        return Jenkins.get().getRootDir().toPath().resolve(name);
    }

    /** Under this object's lock. */
    private void save(String name, Set<Pending> folders) {
        StringBuilder text = new StringBuilder();
        folders.forEach(p -> text.append(p.line()).append('\n'));
        try {
            Path file = file(name);
            Files.createDirectories(file.getParent());
            OwnerOnlyFiles.write(file, text.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            LOGGER.log(Level.WARNING, "could not note the Copilot session folders still to delete; a restart forgets them", e);
        }
    }

    private static List<Pending> load(String name) {
        List<Pending> loaded = new ArrayList<>();
        Path file = file(name);
        if (!Files.exists(file)) {
            return loaded;
        }
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                Pending p = Pending.parse(line);
                if (p != null) {
                    loaded.add(p);
                }
            }
        } catch (IOException e) {
            LOGGER.log(Level.WARNING, "could not read the Copilot session folders still to delete", e);
        }
        return loaded;
    }
}
