package io.jenkins.plugins.copilotautopilot.benchmark;

import java.util.ArrayList;
import java.util.List;

/**
 * One side's builds of one round of a workload ({@code position}: its place in the round's order, from 1), with the idle
 * window measured just before them.
 */
record Round(Workload workload, int number, Side side, int position, Window idle, Window run, double loadMin,
             double loadMax, List<Long> durationsMs, List<Long> consoleBytes, int succeeded, List<String> failures) {

    /**
     * The step, or {@code sh} as workflow-durable-task-step runs it by default (the controller polls the agent for new
     * output, every 250 ms at first and less often while nothing comes), or {@code sh} with its
     * {@code DurableTaskStep.USE_WATCHING} on (JENKINS-52165: the agent sends new output over; the opentelemetry
     * plugin turns it on for the whole controller when it loads).
     */
    enum Side {
        STEP("step", "step"), SH("sh", "`sh`"), SH_WATCH("sh-watch", "`sh` watching"),
        /** A build that only holds its agent as long as a session lasts: what the Pipeline costs by itself, any step on top. */
        FLOOR("floor", "a build that only waits");

        final String label;
        final String markdown;

        Side(String label, String markdown) {
            this.label = label;
            this.markdown = markdown;
        }

        static Side of(String label) {
            for (Side side : values()) {
                if (side.label.equals(label.trim())) {
                    return side;
                }
            }
            throw new IllegalArgumentException("no side " + label + " (step, sh, sh-watch, floor)");
        }
    }

    /**
     * What was counted between two moments: the wall time, the controller's (this JVM's) and the agent JVM's CPU, the
     * agent's channel, and the whole machine's busy CPU (in ticks, of all cores).
     */
    record Window(long wallMs, long controllerMs, long agentMs, ChannelTraffic.Counts traffic, long machineBusyTicks,
                  long machineAllTicks, int cores) {
        /** The machine's busy CPU, in cores. */
        double machineCores() {
            return machineAllTicks == 0 ? 0 : (double) machineBusyTicks / machineAllTicks * cores;
        }
    }

    /** The sum of the builds' durations, in minutes: the session-minutes the figures are per. */
    double sessionMinutes() {
        return durationsMs.stream().mapToLong(Long::longValue).sum() / 60_000.0;
    }

    /** What the idle window would have counted in the round's wall time. */
    private double idleShare(long idleValue) {
        return idle == null || idle.wallMs() == 0 ? 0 : (double) idleValue * run.wallMs() / idle.wallMs();
    }

    double controllerMsPerSessionMinute() {
        return (run.controllerMs() - idleShare(idle == null ? 0 : idle.controllerMs())) / sessionMinutes();
    }

    double agentMsPerSessionMinute() {
        return (run.agentMs() - idleShare(idle == null ? 0 : idle.agentMs())) / sessionMinutes();
    }

    double requestsPerSessionMinute() {
        return (run.traffic().requests() - idleShare(idle == null ? 0 : idle.traffic().requests())) / sessionMinutes();
    }

    double commandsPerSessionMinute() {
        long all = run.traffic().commandsOut() + run.traffic().commandsIn();
        long idleAll = idle == null ? 0 : idle.traffic().commandsOut() + idle.traffic().commandsIn();
        return (all - idleShare(idleAll)) / sessionMinutes();
    }

    double channelKbPerSessionMinute() {
        return (run.traffic().bytes() - idleShare(idle == null ? 0 : idle.traffic().bytes())) / 1024.0 / sessionMinutes();
    }

    double medianSessionSeconds() {
        List<Double> seconds = new ArrayList<>();
        durationsMs.forEach(d -> seconds.add(d / 1000.0));
        return Report.median(seconds);
    }
}
