package io.jenkins.plugins.copilotautopilot.pages;

import io.jenkins.plugins.copilotautopilot.core.report.ApprovalReport;
import java.io.Serializable;
import org.kohsuke.stapler.export.Exported;
import org.kohsuke.stapler.export.ExportedBean;

/**
 * A call that waited for a person, as a build keeps it in {@code build.xml}: the tool, its arguments (masked, cut), the
 * pattern, what was decided, by whom and when.
 */
@ExportedBean(defaultVisibility = 4)
public final class ApprovalRecord implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final int MAX_ARGUMENTS = 2_000;

    private final String tool;
    private final String arguments;
    private final String pattern;
    private final String requestedAt;
    private final String verdict;
    private final String by;
    private final String at;

    ApprovalRecord(ApprovalReport r) {
        this(r.tool(), r.arguments() == null || r.arguments().length() <= MAX_ARGUMENTS ? r.arguments()
                : r.arguments().substring(0, MAX_ARGUMENTS) + "\u2026", r.pattern(), r.requestedAt(), r.verdict(), r.by(), r.at());
    }

    private ApprovalRecord(String tool, String arguments, String pattern, String requestedAt, String verdict, String by, String at) {
        this.tool = tool;
        this.arguments = arguments;
        this.pattern = pattern;
        this.requestedAt = requestedAt;
        this.verdict = verdict;
        this.by = by;
        this.at = at;
    }

    /** Without the arguments: for a reader who may not see what the agent wrote. */
    ApprovalRecord withoutArguments() {
        return new ApprovalRecord(tool, null, pattern, requestedAt, verdict, by, at);
    }

    @Exported
    public String getTool() {
        return tool;
    }

    @Exported
    public String getArguments() {
        return arguments;
    }

    @Exported
    public String getPattern() {
        return pattern;
    }

    @Exported
    public String getRequestedAt() {
        return requestedAt;
    }

    /** APPROVED, DENIED, TIMED_OUT, LEFT_TO_RULES or SESSION_ENDED. */
    @Exported
    public String getVerdict() {
        return verdict;
    }

    /** Who decided (a user's id), or null when nobody did. */
    @Exported
    public String getBy() {
        return by;
    }

    @Exported
    public String getAt() {
        return at;
    }
}
