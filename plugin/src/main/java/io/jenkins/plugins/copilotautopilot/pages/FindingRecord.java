package io.jenkins.plugins.copilotautopilot.pages;

import io.jenkins.plugins.copilotautopilot.core.output.Finding;
import io.jenkins.plugins.copilotautopilot.core.text.ConsoleText;
import java.io.Serializable;
import org.kohsuke.stapler.export.Exported;
import org.kohsuke.stapler.export.ExportedBean;

/** A review finding as a build keeps it in {@code build.xml}: its path (relative to the workspace), lines, severity and words. */
@ExportedBean(defaultVisibility = 5) // inside a part of a session: one level deeper, shown with the part
public final class FindingRecord implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final int MAX_PATH = 500;
    private static final int MAX_MESSAGE = 2_000;

    private final String path;
    private final int line;
    private final int endLine;
    private final String severity;
    private final String message;
    private final String rule;

    FindingRecord(Finding f) {
        this.path = cut(ConsoleText.clean(f.path()), MAX_PATH);
        this.line = f.line();
        this.endLine = f.endLine();
        this.severity = f.severity().word();
        this.message = cut(f.message(), MAX_MESSAGE);
        String r = f.rule() != null ? f.rule() : f.category();
        this.rule = r == null ? null : cut(r, MAX_PATH);
    }

    private static String cut(String text, int max) {
        return text.length() > max ? text.substring(0, max) + "\u2026" : text;
    }

    @Exported
    public String getPath() {
        return path;
    }

    @Exported
    public int getLine() {
        return line;
    }

    @Exported
    public int getEndLine() {
        return endLine;
    }

    /** high, medium or low. */
    @Exported
    public String getSeverity() {
        return severity;
    }

    @Exported
    public String getMessage() {
        return message;
    }

    /** The rule, else the category, else null. */
    @Exported
    public String getRule() {
        return rule;
    }
}
