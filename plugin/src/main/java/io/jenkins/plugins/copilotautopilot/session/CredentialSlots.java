package io.jenkins.plugins.copilotautopilot.session;

import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.usage.FolderQuotas;
import io.jenkins.plugins.copilotautopilot.usage.QuotaConfiguration;

import com.cloudbees.hudson.plugins.folder.AbstractFolder;
import com.google.common.util.concurrent.MoreExecutors;
import hudson.Extension;
import hudson.ExtensionList;
import hudson.XmlFile;
import hudson.model.ItemGroup;
import hudson.model.Job;
import hudson.model.Run;
import hudson.model.Saveable;
import hudson.model.TaskListener;
import hudson.model.listeners.ItemListener;
import hudson.model.listeners.SaveableListener;
import hudson.security.ACL;
import hudson.security.ACLContext;
import io.jenkins.plugins.copilotautopilot.core.build.GithubTokenSource;
import io.jenkins.plugins.copilotautopilot.core.slots.SessionSlots;
import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import jenkins.model.Jenkins;
import jenkins.security.HMACConfidentialKey;
import jenkins.util.Timer;
import org.jenkinsci.plugins.workflow.steps.StepExecution;

/**
 * The controller's slots of GitHub tokens ({@link SessionSlots}): how many sessions run at once with one token, capped
 * by the administrator ({@link QuotaConfiguration#getSessionsPerCredential()}) and by folders
 * ({@link FolderQuotas#getSessionsPerCredential()}), each counting the sessions below it. A step claims its token's
 * slot once its inputs are gathered, before anything starts on the agent; a Pipeline step is told when its turn comes
 * (no thread waits for it), a Freestyle build step waits on its executor.
 *
 * <p>A slot's key is a keyed hash of the token ({@link HMACConfidentialKey}): sessions with the same token share its
 * slots whatever credential or variable it comes from, and two folders' credentials of the same ID are two keys. The
 * token itself is kept nowhere. Nothing is saved here: each step keeps its own small {@link Ticket}, and after a
 * restart the slots are rebuilt from the running steps ({@link Claimant}); a build that is gone, or that ended without
 * its step saying so (a hard kill), frees its slot at the next look ({@link #SWEEP_SECONDS}).
 */
@Extension
public final class CredentialSlots {
    private static final HMACConfidentialKey TOKEN_KEY = new HMACConfidentialKey(CredentialSlots.class, "token");
    /** How often the slots' holders and waiters are looked at, for builds that are gone. */
    static final long SWEEP_SECONDS = Long.getLong(CredentialSlots.class.getName() + ".sweepSeconds", 15);
    /** The longest the slots wait for the running steps to be found after a restart, before granting anyway. */
    static final long RECOVERY_LIMIT_MINUTES = 5;
    private static final int HOLDERS_SHOWN = 5;

    private final SessionSlots slots = new SessionSlots(CredentialSlots::cap);
    private final AtomicBoolean sweepScheduled = new AtomicBoolean();

    public static CredentialSlots get() {
        return ExtensionList.lookupSingleton(CredentialSlots.class);
    }

    /** A session's claim of its token's slot, as its step keeps it through a restart; no token in it. */
    public static final class Ticket implements Serializable {
        private static final long serialVersionUID = 1L;
        /** The build ({@link Run#getExternalizableId()}), a slash and the step's invocation. */
        private final String id;
        private final String key;
        private final String display;
        private final ArrayList<String> scopes;
        private final long order;
        private final String name;
        private final long sinceMillis;

        Ticket(String id, String key, String display, List<String> scopes, long order, String name, long sinceMillis) {
            this.id = id;
            this.key = key;
            this.display = display;
            this.scopes = new ArrayList<>(scopes);
            this.order = order;
            this.name = name;
            this.sinceMillis = sinceMillis;
        }

        SessionSlots.Claim claim() {
            return new SessionSlots.Claim(id, key, scopes, order, name);
        }

        /** For the log: {@code credential 'copilot-token'}, {@code the token in $GH_TOKEN}. */
        public String display() {
            return display;
        }

        String owner() {
            return id.substring(0, id.lastIndexOf('/'));
        }
    }

    /** A running step that holds or waits for a slot: found among the running steps after a restart. */
    public interface Claimant {
        /** Its ticket; null when it claims no slot. */
        Ticket slotTicket();

        /** Whether it waits for its slot. */
        boolean waitsForSlot();

        /** Whether it holds its slot: its session is starting or running. */
        boolean holdsSlot();

        /** Its slot is its now: it starts, without blocking the caller. */
        void slotGranted();
    }

    /**
     * The ticket of a session with this GitHub token; null for a session without one (own model provider only), which
     * is not limited.
     */
    public static Ticket ticket(GithubTokenSource source, String token, Run<?, ?> run, String invocationId) {
        if (source.isNone() || token == null || token.isBlank()) {
            return null;
        }
        String display = source.credentialsId() != null ? "credential '" + source.credentialsId() + "'" : "the token in $" + source.variable();
        Job<?, ?> job = run.getParent();
        return new Ticket(run.getExternalizableId() + "/" + invocationId, TOKEN_KEY.mac(token), display, scopes(job),
                get().slots.nextOrder(System.currentTimeMillis()), "#" + run.getNumber() + " of " + job.getFullName(),
                System.currentTimeMillis());
    }

    /** The controller, and each folder the job is in, outermost first. */
    static List<String> scopes(Job<?, ?> job) {
        Deque<String> scopes = new ArrayDeque<>();
        for (ItemGroup<?> group = job.getParent(); group instanceof AbstractFolder<?> folder; group = folder.getParent()) {
            scopes.addFirst(folder.getFullName());
        }
        scopes.addFirst(SessionSlots.CONTROLLER);
        return List.copyOf(scopes);
    }

    /** A scope's cap: the System page's for the controller, the folder's own for a folder; 0 for none. */
    private static int cap(String scope) {
        Integer cap;
        try (ACLContext ignored = ACL.as2(ACL.SYSTEM2)) {
            if (SessionSlots.CONTROLLER.equals(scope)) {
                cap = QuotaConfiguration.get().getSessionsPerCredential();
            } else {
                Jenkins jenkins = Jenkins.getInstanceOrNull();
                AbstractFolder<?> folder = jenkins == null ? null : jenkins.getItemByFullName(scope, AbstractFolder.class);
                FolderQuotas own = folder == null ? null : folder.getProperties().get(FolderQuotas.class);
                cap = own == null ? null : own.getSessionsPerCredential();
            }
        }
        return cap == null ? 0 : cap;
    }

    /**
     * Claims the ticket's slot: true when the session may start now; else the log says what it waits for, and
     * {@code onGrant} is told when its turn comes (it must not block).
     */
    public boolean acquire(Ticket ticket, TaskListener listener, Runnable onGrant) {
        SessionSlots.Answer answer = slots.acquire(ticket.claim(), claim -> onGrant.run());
        sweepSoon();
        if (answer instanceof SessionSlots.Waiting waiting) {
            listener.getLogger().println(waitingLine(ticket, waiting));
            return false;
        }
        return true;
    }

    /**
     * Waits on this thread (a Freestyle build's) until the ticket's slot is free; an interrupt (an abort) takes it out
     * of the queue at once, says so, and is thrown.
     */
    public void await(Ticket ticket, TaskListener listener) throws InterruptedException {
        CompletableFuture<Void> free = new CompletableFuture<>();
        if (acquire(ticket, listener, () -> free.complete(null))) {
            return;
        }
        try {
            free.get();
        } catch (InterruptedException e) {
            stoppedWhileWaiting(ticket, listener);
            throw e;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e); // never completed exceptionally
        }
        startingAfterWait(ticket, listener);
    }

    /** The log's line once a waiting session's slot is free. */
    public void startingAfterWait(Ticket ticket, TaskListener listener) {
        listener.getLogger().println(Messages.CredentialSlots_Free(ticket.display(), duration(System.currentTimeMillis() - ticket.sinceMillis)));
    }

    /** A step stopped while it waited: out of the queue (or its slot freed, if it came meanwhile), one line. */
    public void stoppedWhileWaiting(Ticket ticket, TaskListener listener) {
        release(ticket);
        listener.getLogger().println(Messages.CredentialSlots_Stopped(ticket.display()));
    }

    /** The log's line of a step still waiting after a restart. */
    public static String stillWaiting(Ticket ticket) {
        return Messages.CredentialSlots_StillWaiting(ticket.display());
    }

    /** Frees the ticket's slot, or takes it out of the queue; again changes nothing. The next waiter starts. */
    public void release(Ticket ticket) {
        slots.release(ticket.id);
    }

    /** What the step's status says while it waits. */
    public static String status(Ticket ticket) {
        return "waiting for a session slot of " + ticket.display();
    }

    private static String waitingLine(Ticket ticket, SessionSlots.Waiting waiting) {
        if (waiting.recovering()) {
            return Messages.CredentialSlots_WaitingAfterRestart(ticket.display());
        }
        List<String> holders = waiting.holders();
        String names = String.join(", ", holders.subList(0, Math.min(HOLDERS_SHOWN, holders.size())))
                + (holders.size() > HOLDERS_SHOWN ? ", \u2026" : "");
        int cap = waiting.cap() > 0 ? waiting.cap() : holders.size();
        return SessionSlots.CONTROLLER.equals(waiting.scope())
                ? Messages.CredentialSlots_Waiting(ticket.display(), holders.size(), cap, names)
                : Messages.CredentialSlots_WaitingInFolder(ticket.display(), holders.size(), cap, waiting.scope(), names);
    }

    /** {@code 1 min 5 s}, {@code 2 h 3 min}, {@code 4 s}. */
    static String duration(long millis) {
        long seconds = Math.max(0, millis) / 1000;
        long hours = seconds / 3600;
        long minutes = seconds % 3600 / 60;
        long rest = seconds % 60;
        if (hours > 0) {
            return hours + " h " + minutes + " min";
        }
        return minutes > 0 ? minutes + " min " + rest + " s" : rest + " s";
    }

    /** Looks at the holders and waiters soon, and again while there are any. */
    private void sweepSoon() {
        if (sweepScheduled.compareAndSet(false, true)) {
            Timer.get().schedule(this::sweep, SWEEP_SECONDS, TimeUnit.SECONDS);
        }
    }

    /** Frees the slots of builds that are gone or over, and takes them out of the queue. */
    private void sweep() {
        sweepScheduled.set(false);
        List<SessionSlots.Claim> all = new ArrayList<>(slots.holders());
        all.addAll(slots.waiters());
        try (ACLContext ignored = ACL.as2(ACL.SYSTEM2)) {
            for (SessionSlots.Claim claim : all) {
                Run<?, ?> run = Run.fromExternalizableId(claim.id().substring(0, claim.id().lastIndexOf('/')));
                if (run == null || !run.isBuilding()) {
                    slots.release(claim.id());
                }
            }
        }
        if (!slots.holders().isEmpty() || !slots.waiters().isEmpty()) {
            sweepSoon();
        }
    }

    /** After a restart: nothing is granted until the running steps' tickets are back (or a time limit passes). */
    void recover() {
        slots.startRecovery();
        Timer.get().schedule(slots::endRecovery, RECOVERY_LIMIT_MINUTES, TimeUnit.MINUTES);
        Timer.get().submit(() -> StepExecution.acceptAll(StepExecution.class, e -> {
            if (e instanceof Claimant claimant) {
                restore(claimant);
            }
        }).addListener(() -> {
            slots.endRecovery();
            sweepSoon();
        }, MoreExecutors.directExecutor()));
    }

    private void restore(Claimant claimant) {
        Ticket ticket = claimant.slotTicket();
        if (ticket == null) {
            return;
        }
        if (claimant.waitsForSlot()) {
            slots.restore(ticket.claim(), false, claim -> claimant.slotGranted());
        } else if (claimant.holdsSlot()) {
            slots.restore(ticket.claim(), true, null);
        }
    }

    /** Whether the ticket's session holds its slot now (tests, diagnostics). */
    public boolean holds(Ticket ticket) {
        return slots.holds(ticket.id);
    }

    /** How many sessions of the key hold slots, by their names (tests, diagnostics). */
    public List<String> holders() {
        return slots.holders().stream().map(SessionSlots.Claim::name).toList();
    }

    /** The names of the waiting sessions, in their order (tests, diagnostics). */
    public List<String> waiters() {
        return slots.waiters().stream().map(SessionSlots.Claim::name).toList();
    }

    /** Once the items are loaded (and the Pipelines with them): the slots are rebuilt from the running steps. */
    @Extension
    public static final class Recovery extends ItemListener {
        @Override
        public void onLoaded() {
            get().recover();
        }
    }

    /** A cap changed (the System page, a folder, Configuration as Code): the waiters it lets through start. */
    @Extension
    public static final class CapChanges extends SaveableListener {
        @Override
        public void onChange(Saveable o, XmlFile file) {
            if (o instanceof QuotaConfiguration || o instanceof AbstractFolder<?>) {
                Timer.get().submit(get().slots::recheck);
            }
        }
    }
}
