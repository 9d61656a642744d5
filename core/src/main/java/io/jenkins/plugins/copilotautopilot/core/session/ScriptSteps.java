package io.jenkins.plugins.copilotautopilot.core.session;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.events.CliEvent;
import java.util.List;

/**
 * The launch script's own steps between the CLI's runs, as its events tell them: the acceptance check running, the wait
 * to be told what comes next after a run of the CLI or of the check, how many runs of the CLI have ended, and the
 * session continued after a refusal of GitHub's service. Its state is guarded by the lock of its {@link SessionTracker}.
 */
final class ScriptSteps {
    /** The exit code listeners get for a check a stop cut short. */
    static final int STOPPED_VERIFY = -2;
    /** Set once the session is being stopped: a check that ends by a signal then was cut short by the stop. */
    private boolean stopRequested;
    private boolean verifyRunning;
    private SessionTracker.Awaiting awaiting;
    /** How often the CLI ended and the launch script waited to be told what comes next (one per run of the CLI). */
    private int cliEnds;
    private int riddenOut;
    /** Ride-outs whose run of the CLI has started again: the one after {@link #riddenOut} is being waited for. */
    private int riddenOutAnswered;

    /** Follows one of the launch script's own events ({@code autopilot.*}), under {@code lock}, and tells the listeners. */
    void follow(CliEvent event, Object lock, List<SessionListener> listeners) {
        JsonNode data = event.data();
        switch (event.type()) {
            case CliEvent.CLI_FOUND -> listeners.forEach(l -> l.onCliFound(event.dataText("path"), event.dataText("version")));
            case CliEvent.CHANGES_LEFT_OUT -> listeners.forEach(l -> l.onChangesLeftOut(data.path("files").asLong(),
                    data.path("kilobytes").asLong(), data.path("maxFiles").asLong(), data.path("maxKilobytes").asLong()));
            case CliEvent.VERIFY_STARTED -> {
                int round = data.path("round").asInt();
                synchronized (lock) {
                    verifyRunning = true;
                }
                listeners.forEach(l -> l.onVerifyStarted(round, event.timestamp()));
            }
            case CliEvent.VERIFY_OUTPUT -> {
                String text = event.dataText("text");
                listeners.forEach(l -> l.onVerifyOutput(text == null ? "" : text));
            }
            case CliEvent.AWAITING -> {
                SessionTracker.Awaiting waits;
                synchronized (lock) {
                    waits = awaits(data);
                }
                listeners.forEach(l -> l.onAwaiting(waits, event.timestamp()));
            }
            case CliEvent.VERIFY_FINISHED -> {
                int round = data.path("round").asInt();
                int exit = data.path("exitCode").asInt(-1);
                boolean cut;
                synchronized (lock) {
                    // the launch script saw the stop, or the stop's signal ended it first
                    cut = data.path("stopped").asBoolean(false) || stopRequested && exit > 128;
                    verifyRunning = false;
                }
                listeners.forEach(l -> l.onVerifyFinished(round, cut ? STOPPED_VERIFY : exit, event.timestamp()));
            }
            default -> throw new IllegalArgumentException("not an event of the launch script's: " + event.type());
        }
    }

    /** The session is being stopped. */
    void stopping() {
        stopRequested = true;
    }

    /** Any event: whatever the launch script or the CLI prints next, the script has moved on. */
    void movedOn() {
        if (awaiting != null && !awaiting.afterCheck()) {
            riddenOutAnswered = riddenOut;
        }
        awaiting = null;
    }

    /** The script waits ({@code autopilot.awaiting}): after a run of the CLI, one more has ended. */
    private SessionTracker.Awaiting awaits(JsonNode data) {
        awaiting = new SessionTracker.Awaiting(data.path("step").asInt(), data.path("after").asText(""), data.path("exitCode").asInt(-1));
        if (!awaiting.afterCheck()) {
            cliEnds++;
        }
        return awaiting;
    }

    /** The session is continued after a refusal of the service; returns the run of the CLI that was refused. */
    int rideOut() {
        riddenOut++;
        return cliEnds - 1;
    }

    SessionTracker.Awaiting awaiting() {
        return awaiting;
    }

    int cliEnds() {
        return cliEnds;
    }

    int riddenOut() {
        return riddenOut;
    }

    /** Whether the script is at work between the CLI's runs: the acceptance check runs, or it waits to be told. */
    boolean working() {
        return verifyRunning || awaiting != null;
    }

    /** Whether it waits to continue the session after the service refused it. */
    boolean waitingAfterRefusal() {
        return awaiting != null && !awaiting.afterCheck() && riddenOut > riddenOutAnswered;
    }
}
