package io.jenkins.plugins.copilotautopilot.core.testing;

import static org.junit.jupiter.api.Assertions.fail;

import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.command.CliLocator;
import io.jenkins.plugins.copilotautopilot.core.command.CliNotFoundException;

/**
 * The real Copilot CLI the end-to-end tests run: the system property {@code copilot.cli} (set by the build
 * from {@code COPILOT_CLI}, or to the folder the build installed the pinned CLI into), else the
 * environment variable {@code COPILOT_CLI}. A missing CLI fails the test; it never skips it.
 */
public final class TestCli {
    private static CliExecutable cached;

    private TestCli() {
    }

    public static synchronized CliExecutable executable() {
        if (cached == null) {
            String configured = System.getProperty("copilot.cli");
            if (configured == null || configured.isBlank() || configured.contains("${")) {
                configured = System.getenv("COPILOT_CLI");
            }
            if (configured == null || configured.isBlank()) {
                fail("The end-to-end tests need the real Copilot CLI " + CliLocator.PINNED_VERSION
                        + ": set COPILOT_CLI (or -Dcopilot.cli) to its executable or npm install folder,"
                        + " or run `mvn verify`, which installs it with npm.");
            }
            try {
                cached = new CliLocator().locate(configured, null, "COPILOT_CLI or -Dcopilot.cli");
            } catch (CliNotFoundException e) {
                fail("The end-to-end tests need the real Copilot CLI: " + e.getMessage());
            }
        }
        return cached;
    }
}
