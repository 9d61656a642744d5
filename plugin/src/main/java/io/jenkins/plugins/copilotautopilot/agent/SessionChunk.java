package io.jenkins.plugins.copilotautopilot.agent;

import java.io.Serializable;

/**
 * What the agent hands the controller of a running session at once: new bytes of the CLI's events, its errors and
 * the usage records of its model calls, each with the position it starts at (so that the controller can tell bytes
 * it already has from new ones, after a reconnection or a restart); and, at the end, why the CLI could not start and
 * what the agent changed. Only JDK types, so that it passes the controller's remoting class filter.
 */
final class SessionChunk implements Serializable {
    private static final long serialVersionUID = 1L;
    static final byte[] NONE = new byte[0];

    final long outputStart;
    final byte[] output;
    final long stderrStart;
    final byte[] stderr;
    final long usageStart;
    /** The usage record lines found. */
    final byte[] usage;
    /** How far the session state was read (whole lines, records or not). */
    final long usageConsumed;
    /** Why the launch script could not start the CLI, or null; set on the last chunk only. */
    String launchError;
    /** What the launch script recorded of the agent's changes, or nulls; set on the last chunk only. */
    byte[] changesStatus;
    byte[] changesNumstat;
    byte[] changesPatch;
    /** The session's state packed for a later build ({@code session}), or null; its size when it was too large to hand over. */
    byte[] keptSession;
    long keptSessionSize;
    /** The CLI's OpenTelemetry file ({@code otel}), at most {@code SpanFile.MAX_BYTES}, or null; set on the last chunk only. */
    byte[] spans;
    /** The approval hook's open requests, all of them, by id and text; null when the set did not change. */
    String[] approvalIds;
    String[] approvalTexts;

    SessionChunk(long outputStart, byte[] output, long stderrStart, byte[] stderr, long usageStart, byte[] usage, long usageConsumed) {
        this.outputStart = outputStart;
        this.output = output;
        this.stderrStart = stderrStart;
        this.stderr = stderr;
        this.usageStart = usageStart;
        this.usage = usage;
        this.usageConsumed = usageConsumed;
    }

    boolean isEmpty() {
        return output.length == 0 && stderr.length == 0 && usageConsumed == 0 && approvalIds == null;
    }

    /** Sets the open approval requests. */
    void approvals(java.util.List<io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate.Request> open) {
        approvalIds = open.stream().map(io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate.Request::id).toArray(String[]::new);
        approvalTexts = open.stream().map(io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate.Request::text).toArray(String[]::new);
    }

    /** The open approval requests, or null when this chunk does not tell. */
    java.util.List<io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate.Request> approvals() {
        if (approvalIds == null) {
            return null;
        }
        java.util.List<io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate.Request> open = new java.util.ArrayList<>();
        for (int i = 0; i < approvalIds.length; i++) {
            open.add(new io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate.Request(approvalIds[i], approvalTexts[i]));
        }
        return open;
    }
}
