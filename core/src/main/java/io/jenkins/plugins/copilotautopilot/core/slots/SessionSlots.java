package io.jenkins.plugins.copilotautopilot.core.slots;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * How many sessions run at once with one GitHub token, and who waits for a slot, in order. A session claims a slot
 * of its token's {@linkplain Claim#key() key} in its {@linkplain Claim#scopes() scopes} (the controller, and each
 * folder it is in); each scope may have a cap ({@link Caps}, read at every decision, so that a changed cap counts at
 * once). A claim holds a slot when every scope of it has room; else it waits.
 *
 * <p>Waiters of a key get their slots in the order they came (their {@linkplain Claim#order() order}): a claim never
 * starts before an earlier one that could start. An earlier one that waits for a full folder does not hold back a later
 * one outside that folder; it keeps its place for the controller's slots.
 *
 * <p>Each claim is released once: a second release, or the release of a claim never seen, changes nothing. A grant is
 * told to its callback outside this object's lock; callbacks must not block. After a restart the slots are rebuilt
 * from what the sessions saved ({@link #startRecovery()}, {@link #restore}, {@link #endRecovery()}): meanwhile nothing
 * is granted, and a release of a claim not restored yet keeps it from being restored. A waiter holds back no one: taking
 * it out of the queue ({@link #cancel}) starts nobody.
 */
public final class SessionSlots {
    private static final Logger LOGGER = Logger.getLogger(SessionSlots.class.getName());
    /** The scope of every claim: the controller. */
    public static final String CONTROLLER = "";

    /** The cap of a scope: how many sessions of one key may run in it at once; 0 or less for none. */
    @FunctionalInterface
    public interface Caps {
        int cap(String scope);
    }

    /**
     * One session's claim of a slot.
     *
     * @param id     unique among all claims (the build and the step)
     * @param key    the token's key; never the token
     * @param scopes the controller ({@link #CONTROLLER}) and the folders the session's job is in, outermost first
     * @param order  its place in the queue: earlier claims have smaller numbers ({@link #nextOrder})
     * @param name   how the log names its session to those who wait ({@code #12 of team/app})
     */
    public record Claim(String id, String key, List<String> scopes, long order, String name) {
        public Claim {
            scopes = List.copyOf(scopes);
        }
    }

    /** What a claim got. */
    public sealed interface Answer permits Granted, Waiting {
    }

    /** The claim holds a slot. */
    public record Granted() implements Answer {
    }

    /**
     * The claim waits.
     *
     * @param scope      the full scope it waits for (null while the slots are being rebuilt)
     * @param cap        that scope's cap
     * @param holders    the sessions that hold that scope's slots, the first to start first
     * @param recovering whether the slots are being rebuilt after a restart
     */
    public record Waiting(String scope, int cap, List<String> holders, boolean recovering) implements Answer {
        public Waiting {
            holders = List.copyOf(holders);
        }
    }

    private record Waiter(Claim claim, Consumer<Claim> onGrant) {
    }

    private final Caps caps;
    private final Map<String, Claim> holders = new LinkedHashMap<>();
    private final TreeMap<Claim, Waiter> waiting = new TreeMap<>(Comparator.comparingLong(Claim::order).thenComparing(Claim::id));
    private final Map<String, Claim> waitingById = new HashMap<>();
    private final Set<String> releasedWhileRecovering = new HashSet<>();
    private boolean recovering;
    private long lastOrder;

    public SessionSlots(Caps caps) {
        this.caps = caps;
    }

    /** A place in the queue after every place given or restored, at least {@code nowMillis} × 1000. */
    public synchronized long nextOrder(long nowMillis) {
        lastOrder = Math.max(lastOrder + 1, Math.multiplyExact(nowMillis, 1000L));
        return lastOrder;
    }

    /**
     * Claims a slot: granted now, or queued until one is free, when {@code onGrant} is told (on the thread that freed
     * it). A claim already held is granted again; one already waiting keeps its place, told through {@code onGrant}.
     */
    public Answer acquire(Claim claim, Consumer<Claim> onGrant) {
        List<Waiter> granted;
        Answer answer;
        synchronized (this) {
            if (holders.containsKey(claim.id())) {
                return new Granted();
            }
            Claim queued = waitingById.get(claim.id());
            if (queued != null) {
                waiting.put(queued, new Waiter(queued, onGrant));
            } else {
                lastOrder = Math.max(lastOrder, claim.order());
                waiting.put(claim, new Waiter(claim, onGrant));
                waitingById.put(claim.id(), claim);
            }
            granted = grantable();
            Claim mine = queued != null ? queued : claim;
            boolean grantedMine = granted.removeIf(w -> w.claim().id().equals(mine.id()));
            answer = grantedMine ? new Granted() : waitingFor(mine);
        }
        tell(granted);
        return answer;
    }

    /** Frees the slot {@code id} holds, or takes it out of the queue; the next waiters get their slots. */
    public boolean release(String id) {
        List<Waiter> granted;
        synchronized (this) {
            boolean held = holders.remove(id) != null;
            boolean queued = removeWaiter(id);
            if (!held && !queued) {
                if (recovering) {
                    releasedWhileRecovering.add(id);
                }
                return false;
            }
            granted = grantable();
        }
        tell(granted);
        return true;
    }

    /** Takes a waiting claim out of the queue; false when it does not wait (it holds a slot, or is unknown). */
    public synchronized boolean cancel(String id) {
        return removeWaiter(id); // a waiter holds nothing and holds back no one: nobody else starts now
    }

    /** Grants what the caps allow now (after a cap was raised). */
    public void recheck() {
        List<Waiter> granted;
        synchronized (this) {
            granted = grantable();
        }
        tell(granted);
    }

    /** From now until {@link #endRecovery()}, nothing is granted: the slots are being rebuilt. */
    public synchronized void startRecovery() {
        recovering = true;
    }

    /**
     * A claim saved before a restart: holding (a running session; counted whatever the caps say now) or waiting in
     * its old place. A claim released meanwhile is not restored; one known already stays as it is.
     */
    public synchronized void restore(Claim claim, boolean holding, Consumer<Claim> onGrant) {
        if (releasedWhileRecovering.contains(claim.id()) || holders.containsKey(claim.id()) || waitingById.containsKey(claim.id())) {
            return;
        }
        lastOrder = Math.max(lastOrder, claim.order());
        if (holding) {
            holders.put(claim.id(), claim);
        } else {
            waiting.put(claim, new Waiter(claim, onGrant));
            waitingById.put(claim.id(), claim);
        }
    }

    /** The slots are rebuilt: the waiters get what is free, in their order. */
    public void endRecovery() {
        List<Waiter> granted;
        synchronized (this) {
            recovering = false;
            releasedWhileRecovering.clear();
            granted = grantable();
        }
        tell(granted);
    }

    public synchronized boolean isRecovering() {
        return recovering;
    }

    /** Whether {@code id} holds a slot. */
    public synchronized boolean holds(String id) {
        return holders.containsKey(id);
    }

    /** Whether {@code id} waits for a slot. */
    public synchronized boolean waits(String id) {
        return waitingById.containsKey(id);
    }

    /** What holds slots now, the first to start first. */
    public synchronized List<Claim> holders() {
        return List.copyOf(holders.values());
    }

    /** What waits, in its order. */
    public synchronized List<Claim> waiters() {
        return List.copyOf(waiting.keySet());
    }

    /** Why {@code id} waits now; null when it does not. */
    public synchronized Waiting whyWaiting(String id) {
        Claim c = waitingById.get(id);
        return c == null ? null : waitingFor(c);
    }

    private boolean removeWaiter(String id) {
        Claim c = waitingById.remove(id);
        if (c == null) {
            return false;
        }
        waiting.remove(c);
        return true;
    }

    /** Moves every waiter whose scopes all have room to the holders, in order; under the lock. */
    private List<Waiter> grantable() {
        List<Waiter> granted = new ArrayList<>();
        if (recovering || waiting.isEmpty()) {
            return granted;
        }
        Map<String, Integer> capOf = new HashMap<>();
        for (Waiter w : List.copyOf(waiting.values())) {
            if (full(w.claim(), capOf) == null) {
                waiting.remove(w.claim());
                waitingById.remove(w.claim().id());
                holders.put(w.claim().id(), w.claim());
                granted.add(w);
            }
        }
        return granted;
    }

    /** The first scope of {@code claim} without room, or null; caps looked up once per decision. */
    private String full(Claim claim, Map<String, Integer> capOf) {
        for (String scope : claim.scopes()) {
            int cap = capOf.computeIfAbsent(scope, caps::cap);
            if (cap > 0 && running(claim.key(), scope).size() >= cap) {
                return scope;
            }
        }
        return null;
    }

    private List<String> running(String key, String scope) {
        List<String> names = new ArrayList<>();
        for (Claim h : holders.values()) {
            if (h.key().equals(key) && h.scopes().contains(scope)) {
                names.add(h.name());
            }
        }
        return names;
    }

    private Waiting waitingFor(Claim claim) {
        if (recovering) {
            return new Waiting(null, 0, List.of(), true);
        }
        String scope = full(claim, new HashMap<>());
        if (scope == null) {
            // room everywhere, yet not granted: earlier waiters are being told (a moment only); the controller's count
            scope = CONTROLLER;
        }
        return new Waiting(scope, Math.max(0, caps.cap(scope)), running(claim.key(), scope), false);
    }

    /** Tells the granted, outside the lock; one whose callback fails cannot start, so its slot goes to the next. */
    private void tell(List<Waiter> granted) {
        for (Waiter w : granted) {
            if (w.onGrant() == null) {
                continue;
            }
            try {
                w.onGrant().accept(w.claim());
            } catch (RuntimeException e) {
                LOGGER.log(Level.WARNING, "a session could not be told of its slot: the slot goes to the next", e);
                release(w.claim().id());
            }
        }
    }
}
