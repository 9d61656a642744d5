package io.jenkins.plugins.copilotautopilot.soak;

import hudson.Main;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import jenkins.model.Jenkins;

/**
 * The soak's controller gives a {@code timeout}'s body the minute users' controllers give it to end once the time is
 * up. The test harness makes Jenkins a unit test ({@code Main.isUnitTest}), and workflow-basic-steps then gives the
 * body 5 s before it ends it "with extreme prejudice": a step that ends by the rules users have would be judged by
 * others. The grace period is fixed when its class is first used: it is used first while Jenkins is not taken for a
 * unit test, by the harness right after the first start and, after a restart, by a Groovy init script (which runs
 * once the jobs are loaded and before Pipelines resume). The step's own stop deadline is tested against the minute
 * ({@code AgentFailureTest#theStepsStopDeadlineIsShorterThanTheMinuteTimeoutGrantsItsBody}).
 */
final class ProductionTimeouts {
    static final long USERS_GRACE_MILLIS = 60_000;
    private static final String TIMEOUT_EXECUTION = "org.jenkinsci.plugins.workflow.steps.TimeoutStepExecution";

    private ProductionTimeouts() {
    }

    /** On the controller, before any {@code timeout} ran: its grace period as users have it. */
    static void asUsersHaveThem() throws ClassNotFoundException {
        boolean unitTest = Main.isUnitTest;
        Main.isUnitTest = false;
        try {
            Class.forName(TIMEOUT_EXECUTION, true, Jenkins.get().getPluginManager().uberClassLoader);
        } finally {
            Main.isUnitTest = unitTest;
        }
    }

    /** The same for the controller's next starts, as a Groovy init script in its home. */
    static void atEveryStart(Path home) throws IOException {
        Path scripts = Files.createDirectories(home.resolve("init.groovy.d"));
        Files.writeString(scripts.resolve("soak-production-timeouts.groovy"), String.join("\n",
                "// the soak (ProductionTimeouts): a timeout's body gets the minute users' controllers give it",
                "boolean unitTest = hudson.Main.isUnitTest",
                "hudson.Main.isUnitTest = false",
                "try {",
                "    Class.forName('" + TIMEOUT_EXECUTION + "', true, jenkins.model.Jenkins.get().pluginManager.uberClassLoader)",
                "} finally {",
                "    hudson.Main.isUnitTest = unitTest",
                "}", ""), StandardCharsets.UTF_8);
    }

    /** How long this controller gives a {@code timeout}'s body once the time is up. */
    static long graceMillis() throws ReflectiveOperationException {
        Field grace = Class.forName(TIMEOUT_EXECUTION, true, Jenkins.get().getPluginManager().uberClassLoader)
                .getDeclaredField("GRACE_PERIOD");
        grace.setAccessible(true);
        return grace.getLong(null);
    }
}
