package io.jenkins.plugins.copilotautopilot.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jenkins.plugins.copilotautopilot.core.report.SessionReport;
import io.jenkins.plugins.copilotautopilot.core.report.ToolCallReport;
import io.jenkins.plugins.copilotautopilot.core.report.TurnReport;
import io.jenkins.plugins.copilotautopilot.core.session.ToolStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the session page says a session's calls: what a stop cut short counted apart, a call's run without its wait. */
class CallWordsTest {
    private static final Instant T0 = Instant.parse("2026-12-06T08:00:00Z");

    private static SessionReport reportWith(ToolCallReport... calls) {
        TurnReport turn = new TurnReport(1, false, T0, 1_000, List.of(), List.of(calls), 0, List.of());
        return new SessionReport(null, "m", null, T0, null, null, null, null, -1, List.of(turn), 0,
                new SessionReport.Totals(1, calls.length, 0, 0, 0, null, null, null, 0, 0, 0, 3));
    }

    @Test
    void callsAStopCutShortAreCountedApart() {
        SessionPageText action = new CopilotAutopilotRunAction().getText();
        SessionReport cut = reportWith(new ToolCallReport("bash", "sleep 60", ToolStatus.INTERRUPTED, T0, 4_200, null, null),
                new ToolCallReport("view", "a", ToolStatus.SUCCEEDED, T0, 10, null, null));
        assertEquals("2 (0 failed, 1 interrupted, 0 denied)", action.callsText(2, 0, 0, cut));
        assertEquals("2 (1 failed, 0 denied)", action.callsText(2, 1, 0, reportWith()));
        assertEquals("2 (1 failed, 0 denied)", action.callsText(2, 1, 0, null));
    }

    @Test
    void aCallThatWaitedForApprovalSaysHowLongItWaitedAndHowLongItRan() {
        SessionPageText action = new CopilotAutopilotRunAction().getText();
        ToolCallReport approved = new ToolCallReport("bash", "touch x", ToolStatus.SUCCEEDED, T0, 25_100, null, null, "APPROVED", 25_000);
        assertEquals("approved after 25s waiting for approval; succeeded in 100 ms", action.callStatus(approved));
        ToolCallReport waiting = new ToolCallReport("bash", "touch x", ToolStatus.RUNNING, T0, -1, null, null,
                ToolCallReport.AWAITING_APPROVAL, -1);
        assertEquals("waiting for approval", action.callStatus(waiting));
        assertEquals("AWAITING", action.callClass(waiting));
    }
}
