package io.jenkins.plugins.copilotautopilot.core.report;

import io.jenkins.plugins.copilotautopilot.core.session.ToolStatus;
import java.time.Instant;

/**
 * One tool call in a report.
 *
 * @param name           the tool, e.g. {@code bash}
 * @param arguments      short single-line summary of the arguments
 * @param status         how it ended (RUNNING when the session ended before it did)
 * @param startedAt      when it started, or null
 * @param durationMillis how long it took, or -1 when unknown
 * @param error          the error of a failed or denied call, else null
 * @param output         the beginning of its output (bounded), else null
 * @param approval       for a call that waited for a person ({@code approveTools}): {@link #AWAITING_APPROVAL} while it
 *                       waits, then the verdict (APPROVED, DENIED, TIMED_OUT, ...); null for a call that did not wait
 * @param approvalWaitMillis how long it waited for the decision, or -1 (no wait, or still waiting)
 */
public record ToolCallReport(String name, String arguments, ToolStatus status, Instant startedAt, long durationMillis,
                             String error, String output, String approval, long approvalWaitMillis) implements java.io.Serializable {
    /** {@link #approval()} of a call that waits for a person's decision now. */
    public static final String AWAITING_APPROVAL = "AWAITING";

    /** A call that did not wait for approval. */
    public ToolCallReport(String name, String arguments, ToolStatus status, Instant startedAt, long durationMillis,
                          String error, String output) {
        this(name, arguments, status, startedAt, durationMillis, error, output, null, -1);
    }

    /** Whether it waits for a person's decision now. */
    public boolean awaitingApproval() {
        return AWAITING_APPROVAL.equals(approval);
    }
}
