package io.jenkins.plugins.copilotautopilot.core.slots;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.slots.SessionSlots.Claim;
import io.jenkins.plugins.copilotautopilot.core.slots.SessionSlots.Granted;
import io.jenkins.plugins.copilotautopilot.core.slots.SessionSlots.Waiting;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The slots of a token: caps per scope, the order of waiters, one release per claim, caps changed, a restart. */
class SessionSlotsTest {
    private final Map<String, Integer> caps = new ConcurrentHashMap<>();
    private final SessionSlots slots = new SessionSlots(scope -> caps.getOrDefault(scope, 0));
    private final List<String> started = Collections.synchronizedList(new ArrayList<>());
    private final Consumer<Claim> start = c -> started.add(c.id());
    private long order;

    private Claim claim(String id, String key, String... folders) {
        List<String> scopes = new ArrayList<>();
        scopes.add(SessionSlots.CONTROLLER);
        scopes.addAll(List.of(folders));
        return new Claim(id, key, scopes, ++order, "#" + id);
    }

    @Test
    void withoutACapEverySessionStartsAndIsCounted() {
        for (int i = 0; i < 5; i++) {
            assertThat(slots.acquire(claim("b" + i, "k"), start)).isInstanceOf(Granted.class);
        }
        assertThat(slots.holders()).hasSize(5);
        caps.put(SessionSlots.CONTROLLER, 5);
        Waiting w = (Waiting) slots.acquire(claim("b5", "k"), start);
        assertThat(w.scope()).isEqualTo(SessionSlots.CONTROLLER);
        assertThat(w.cap()).isEqualTo(5);
        assertThat(w.holders()).containsExactly("#b0", "#b1", "#b2", "#b3", "#b4");
        assertThat(w.recovering()).isFalse();
    }

    @Test
    void waitersStartInTheOrderTheyCameOneForEachRelease() {
        caps.put(SessionSlots.CONTROLLER, 2);
        assertThat(slots.acquire(claim("a", "k"), start)).isInstanceOf(Granted.class);
        assertThat(slots.acquire(claim("b", "k"), start)).isInstanceOf(Granted.class);
        for (String id : List.of("c", "d", "e")) {
            assertThat(slots.acquire(claim(id, "k"), start)).isInstanceOf(Waiting.class);
        }
        assertThat(slots.acquire(claim("other", "another-token"), start)).as("another token has its own slots").isInstanceOf(Granted.class);
        assertThat(started).isEmpty();

        assertThat(slots.release("b")).isTrue();
        assertThat(started).containsExactly("c");
        assertThat(slots.release("a")).isTrue();
        assertThat(started).containsExactly("c", "d");
        assertThat(slots.waiters()).extracting(Claim::id).containsExactly("e");
        assertThat(slots.holds("c")).isTrue();
    }

    @Test
    void aClaimIsReleasedOnceAndAnUnknownOneChangesNothing() {
        caps.put(SessionSlots.CONTROLLER, 1);
        slots.acquire(claim("a", "k"), start);
        slots.acquire(claim("b", "k"), start);
        slots.acquire(claim("c", "k"), start);

        assertThat(slots.release("a")).isTrue();
        assertThat(slots.release("a")).as("a second release").isFalse();
        assertThat(slots.release("never-seen")).isFalse();
        assertThat(started).as("one release, one start").containsExactly("b");
        assertThat(slots.holders()).extracting(Claim::id).containsExactly("b");
    }

    @Test
    void aWaiterTakenOutOfTheQueueNeverStartsAndStartsNobody() {
        caps.put(SessionSlots.CONTROLLER, 1);
        slots.acquire(claim("a", "k"), start);
        slots.acquire(claim("b", "k"), start);
        slots.acquire(claim("c", "k"), start);

        assertThat(slots.cancel("b")).isTrue();
        assertThat(slots.cancel("b")).isFalse();
        assertThat(slots.cancel("a")).as("a holder is not cancelled, it is released").isFalse();
        assertThat(started).isEmpty();
        slots.release("a");
        assertThat(started).containsExactly("c");
    }

    @Test
    void aClaimAskedAgainKeepsItsPlaceOrItsSlot() {
        caps.put(SessionSlots.CONTROLLER, 1);
        Claim a = claim("a", "k");
        Claim b = claim("b", "k");
        slots.acquire(a, start);
        slots.acquire(b, start);
        slots.acquire(claim("c", "k"), start);
        List<String> told = new ArrayList<>();
        assertThat(slots.acquire(new Claim("b", "k", b.scopes(), 999, "#b"), c -> told.add(c.id()))).isInstanceOf(Waiting.class);
        assertThat(slots.acquire(a, start)).isInstanceOf(Granted.class);
        assertThat(slots.holders()).hasSize(1);

        slots.release("a");
        assertThat(told).as("b keeps its first place, and is told through the newer callback").containsExactly("b");
        assertThat(started).isEmpty();
    }

    @Test
    void aRaisedCapStartsWaitersAtTheNextLookAndALoweredOneStopsNobody() {
        caps.put(SessionSlots.CONTROLLER, 1);
        slots.acquire(claim("a", "k"), start);
        slots.acquire(claim("b", "k"), start);
        slots.acquire(claim("c", "k"), start);
        slots.acquire(claim("d", "k"), start);

        caps.put(SessionSlots.CONTROLLER, 3);
        slots.recheck();
        assertThat(started).containsExactly("b", "c");

        caps.put(SessionSlots.CONTROLLER, 1);
        slots.recheck();
        assertThat(slots.holders()).extracting(Claim::id).containsExactly("a", "b", "c");
        slots.release("a");
        slots.release("b");
        assertThat(started).as("still over the lowered cap").containsExactly("b", "c");
        slots.release("c");
        assertThat(started).containsExactly("b", "c", "d");

        caps.remove(SessionSlots.CONTROLLER);
        assertThat(slots.acquire(claim("e", "k"), start)).as("no cap: no wait").isInstanceOf(Granted.class);
    }

    @Test
    void theTighterOfTheControllerAndAFolderAppliesAndAFullFolderHoldsBackNoOneOutsideIt() {
        caps.put(SessionSlots.CONTROLLER, 3);
        caps.put("team", 1);
        assertThat(slots.acquire(claim("t1", "k", "team"), start)).isInstanceOf(Granted.class);
        Waiting w = (Waiting) slots.acquire(claim("t2", "k", "team", "team/app"), start);
        assertThat(w.scope()).isEqualTo("team");
        assertThat(w.cap()).isEqualTo(1);
        assertThat(w.holders()).containsExactly("#t1");
        assertThat(slots.acquire(claim("o1", "k", "other"), start)).as("outside the folder").isInstanceOf(Granted.class);
        assertThat(slots.acquire(claim("o2", "k"), start)).isInstanceOf(Granted.class);
        Waiting controller = (Waiting) slots.acquire(claim("o3", "k"), start);
        assertThat(controller.scope()).isEqualTo(SessionSlots.CONTROLLER);
        assertThat(controller.holders()).containsExactly("#t1", "#o1", "#o2");

        slots.release("o1");
        assertThat(started).as("t2 waits for its folder; o3 came later but may start").containsExactly("o3");
        slots.release("t1");
        assertThat(started).as("t1 freed a slot of the controller and of the folder: the earliest waiter").containsExactly("o3", "t2");
    }

    @Test
    void anEarlierWaiterGetsAFreedSlotBeforeALaterOneOfTheSameFolder() {
        caps.put("team", 1);
        slots.acquire(claim("t1", "k", "team"), start);
        slots.acquire(claim("t2", "k", "team"), start);
        slots.acquire(claim("t3", "k", "team"), start);
        slots.release("t1");
        assertThat(started).containsExactly("t2");
        slots.release("t2");
        assertThat(started).containsExactly("t2", "t3");
    }

    @Test
    void afterARestartHoldersAreCountedAndWaitersKeepTheirOrder() {
        caps.put(SessionSlots.CONTROLLER, 2);
        SessionSlots before = new SessionSlots(scope -> caps.getOrDefault(scope, 0));
        Claim h1 = claim("h1", "k");
        Claim h2 = claim("h2", "k");
        Claim w1 = claim("w1", "k");
        Claim w2 = claim("w2", "k");
        Claim gone = claim("gone", "k");
        for (Claim c : List.of(h1, h2, w1, w2)) {
            before.acquire(c, start);
        }
        assertThat(before.waiters()).containsExactly(w1, w2);

        // the restarted controller: claims come back in any order; a build that is gone comes back never
        slots.startRecovery();
        Map<String, String> told = new HashMap<>();
        Claim early = new Claim("new", "k", List.of(SessionSlots.CONTROLLER), slots.nextOrder(1), "#new");
        Waiting meanwhile = (Waiting) slots.acquire(early, c -> told.put(c.id(), "new"));
        assertThat(meanwhile.recovering()).isTrue();
        slots.restore(w2, false, c -> told.put(c.id(), "w2"));
        slots.restore(h2, true, null);
        slots.release("h1"); // h1 ended before its claim was restored
        slots.restore(h1, true, null);
        slots.restore(w1, false, c -> told.put(c.id(), "w1"));
        assertThat(slots.isRecovering()).isTrue();
        assertThat(told).as("nothing granted while the slots are rebuilt").isEmpty();
        assertThat(slots.nextOrder(0)).as("a new claim comes after every restored one").isGreaterThan(w2.order());

        slots.endRecovery();
        assertThat(slots.holders()).extracting(Claim::id).containsExactly("h2", "w1");
        assertThat(slots.waiters()).extracting(Claim::id).containsExactly("w2", "new");
        assertThat(told).containsOnlyKeys("w1");
        assertThat(slots.holds(gone.id())).isFalse();
        assertThat(slots.whyWaiting("w2").holders()).containsExactly("#h2", "#w1");
    }

    @Test
    void aGrantThatCannotBeToldGoesToTheNext() {
        caps.put(SessionSlots.CONTROLLER, 1);
        slots.acquire(claim("a", "k"), start);
        slots.acquire(claim("b", "k"), c -> {
            throw new IllegalStateException("its build is gone");
        });
        slots.acquire(claim("c", "k"), start);
        slots.release("a");
        assertThat(started).containsExactly("c");
        assertThat(slots.holders()).extracting(Claim::id).containsExactly("c");
    }

    @Test
    void manyThreadsNeverHoldMoreThanTheCapAndEveryClaimStartsOnce() throws Exception {
        caps.put(SessionSlots.CONTROLLER, 3);
        int sessions = 200;
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        Map<String, AtomicInteger> starts = new ConcurrentHashMap<>();
        CountDownLatch done = new CountDownLatch(sessions);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            Consumer<Claim> run = new Consumer<>() {
                @Override
                public void accept(Claim c) {
                    starts.computeIfAbsent(c.id(), id -> new AtomicInteger()).incrementAndGet();
                    most.accumulateAndGet(running.incrementAndGet(), Math::max);
                    pool.execute(() -> {
                        running.decrementAndGet();
                        slots.release(c.id());
                        slots.release(c.id()); // twice: changes nothing
                        done.countDown();
                    });
                }
            };
            for (int i = 0; i < sessions; i++) {
                Claim c = new Claim("s" + i, "k", List.of(SessionSlots.CONTROLLER), slots.nextOrder(0), "#" + i);
                pool.execute(() -> {
                    if (slots.acquire(c, run) instanceof Granted) {
                        run.accept(c);
                    }
                });
            }
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            pool.shutdownNow();
        }
        assertThat(most.get()).isBetween(1, 3);
        assertThat(starts).hasSize(sessions);
        assertThat(starts.values()).allMatch(n -> n.get() == 1);
        assertThat(slots.holders()).isEmpty();
        assertThat(slots.waiters()).isEmpty();
    }
}
