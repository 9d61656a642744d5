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
 */
public record ToolCallReport(String name, String arguments, ToolStatus status, Instant startedAt, long durationMillis,
                             String error, String output) implements java.io.Serializable {
}
