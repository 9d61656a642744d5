package io.jenkins.plugins.copilotautopilot.step;

/** For tests elsewhere: how long the Pipeline step's stop may take before it ends anyway. */
public final class StopDeadlineAccess {
    private StopDeadlineAccess() {
    }

    public static long seconds() {
        return CopilotAutopilotStepExecution.STOP_DEADLINE_SECONDS;
    }

    /** Sets it, giving what it was. */
    public static long seconds(long seconds) {
        long was = CopilotAutopilotStepExecution.STOP_DEADLINE_SECONDS;
        CopilotAutopilotStepExecution.STOP_DEADLINE_SECONDS = seconds;
        return was;
    }
}
