package io.jenkins.plugins.copilotautopilot.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import hudson.remoting.RequestAbortedException;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import org.junit.jupiter.api.Test;

/** What a bounded call to an agent throws. */
class TimeLimitsTest {

    /** Remoting cuts a call off with an unchecked exception when its channel ends: callers hear of it as of an agent away. */
    @Test
    void aCallItsChannelsEndCutOffFailsAsAnAgentAway() {
        RequestAbortedException cutOff = new RequestAbortedException(new ClosedChannelException());
        IOException e = assertThrows(IOException.class, () -> TimeLimits.limit(20, "reading the session on agent-1", () -> {
            throw cutOff;
        }));
        assertEquals(cutOff, e.getCause());
        assertInstanceOf(ClosedChannelException.class, e.getCause().getCause());
    }

    @Test
    void otherUncheckedExceptionsPassAsTheyAre() {
        IllegalStateException bug = new IllegalStateException("a bug");
        assertEquals(bug, assertThrows(IllegalStateException.class, () -> TimeLimits.limit(20, "x", () -> {
            throw bug;
        })));
    }
}
