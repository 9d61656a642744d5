package io.jenkins.plugins.copilotautopilot.usage;

/** What the quota forms say when a value is refused. */
final class QuotaForms {
    private QuotaForms() {
    }

    /** What the quota's own check said (Stapler wraps the constructor's exception; a parse error is wrapped by that check). */
    static String why(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof IllegalArgumentException && !(t instanceof NumberFormatException) && t.getMessage() != null
                    && !t.getMessage().startsWith("Failed to instantiate")) {
                return t.getMessage();
            }
        }
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }
}
