package io.jenkins.plugins.copilotautopilot.pages;

import io.jenkins.plugins.copilotautopilot.core.session.ServiceFailure;
import java.io.Serializable;
import org.kohsuke.stapler.export.Exported;
import org.kohsuke.stapler.export.ExportedBean;

/**
 * Why GitHub's service refused the session, as a build keeps it in {@code build.xml}: the kind by name (a record of a
 * later version may hold a kind this one does not know), the service's code, the HTTP status, whether a retry may help,
 * and what to do.
 */
@ExportedBean(defaultVisibility = 5) // inside a part of a session: one level deeper, shown with the part
public final class FailureRecord implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String kind;
    private final String errorCode;
    private final Integer statusCode;
    private final boolean retryable;
    private final String action;

    FailureRecord(ServiceFailure f) {
        this.kind = f.kind().name();
        this.errorCode = f.errorCode();
        this.statusCode = f.statusCode();
        this.retryable = f.retryable();
        this.action = f.action();
    }

    @Exported
    public String getKind() {
        return kind;
    }

    @Exported
    public String getErrorCode() {
        return errorCode;
    }

    @Exported
    public Integer getStatusCode() {
        return statusCode;
    }

    @Exported
    public boolean isRetryable() {
        return retryable;
    }

    @Exported
    public String getAction() {
        return action;
    }
}
