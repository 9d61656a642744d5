package io.jenkins.plugins.copilotautopilot.soak;

import io.jenkins.plugins.copilotautopilot.soak.ControllerSide.BuildFacts;
import io.jenkins.plugins.copilotautopilot.soak.ControllerSide.BuildRef;

import java.util.HashMap;
import java.util.Map;

/** A build the soak started, followed until its invariants are checked and its job is free again. */
final class Ticket {
    enum State { QUEUED, RUNNING, ENDED, CLEAN }

    final BuildRef ref;
    final SessionKind kind;
    final long startedAt;
    volatile State state = State.QUEUED;
    volatile BuildFacts facts;
    /** When the harness saw it end: its leftovers are looked for from then on, for a bounded time. */
    volatile long endedAt;
    volatile long abortedAt;
    /** Gone after a controller kill: a queue item it forgot, or a Freestyle build (which does not survive one). */
    volatile boolean lostWithController;
    /** Its number was given again to a later build (it went with a killed controller before the job saved it). */
    volatile boolean superseded;
    /** Aborted by the harness because Jenkins' program did not go on after its steps ended (not a violation). */
    volatile boolean heldUpByThePipeline;
    /** The calls it waits on, with the time the harness decides each. */
    final Map<String, Long> decideAt = new HashMap<>();

    Ticket(BuildRef ref, SessionKind kind, long startedAt) {
        this.ref = ref;
        this.kind = kind;
        this.startedAt = startedAt;
    }

    /** Its sessions at once: two for the parallel kind. */
    int sessions() {
        return kind.sessions();
    }

    boolean active() {
        return !superseded && (state == State.QUEUED || state == State.RUNNING);
    }
}
