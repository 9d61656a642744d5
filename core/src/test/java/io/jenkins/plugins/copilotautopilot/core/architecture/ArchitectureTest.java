package io.jenkins.plugins.copilotautopilot.core.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import io.jenkins.plugins.copilotautopilot.core.command.CliLocator;
import io.jenkins.plugins.copilotautopilot.core.install.Platform;
import org.junit.jupiter.api.Test;

/**
 * The shape of {@code core}: no Jenkins, and packages that only depend downward. The allowed dependencies below
 * are the real ones, lowest package first; a new arrow has to be added here on purpose.
 */
class ArchitectureTest {
    private static final String CORE = "io.jenkins.plugins.copilotautopilot.core";
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(CORE);

    @Test
    void coreKnowsNothingOfJenkins() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("hudson..", "jenkins..", "org.kohsuke.stapler..",
                        "org.jenkinsci..", "io.jenkins.plugins.copilotautopilot")
                .because("core is plain Java; the plugin module is the glue to Jenkins")
                .check(CLASSES);
    }

    @Test
    void packagesDependDownwardOnly() {
        LayeredArchitecture layers = layeredArchitecture().consideringOnlyDependenciesInLayers();
        for (String name : new String[] {"text", "events", "mask", "session", "outcome", "command", "install", "journal",
            "render", "process", "report", "settings", "engine", "runner"}) {
            layers = layers.layer(name).definedBy(CORE + "." + name + "..");
        }
        layers
                .whereLayer("text").mayNotAccessAnyLayer()
                .whereLayer("events").mayNotAccessAnyLayer()
                .whereLayer("mask").mayNotAccessAnyLayer()
                .whereLayer("session").mayOnlyAccessLayers("events", "text")
                .whereLayer("outcome").mayOnlyAccessLayers("session", "text")
                .whereLayer("command").mayOnlyAccessLayers("install") // Platform: the known cycle, see below
                .whereLayer("install").mayOnlyAccessLayers("command", "text")
                .whereLayer("journal").mayOnlyAccessLayers("events", "mask")
                .whereLayer("render").mayOnlyAccessLayers("command", "events", "mask", "outcome", "session", "text")
                .whereLayer("process").mayOnlyAccessLayers("command")
                .whereLayer("report").mayOnlyAccessLayers("events", "journal", "session", "text")
                .whereLayer("settings").mayOnlyAccessLayers("command", "outcome", "text")
                .whereLayer("engine").mayOnlyAccessLayers("command", "events", "journal", "mask", "outcome", "process", "render",
                        "session", "text")
                .whereLayer("runner").mayOnlyAccessLayers("command", "engine", "outcome", "process", "render", "report")
                .check(CLASSES);
    }

    /**
     * No cycles between packages, but one known: {@code command.CliLocator} uses {@code install.Platform} for the npm
     * platform package names, and the installer uses {@code CliLocator} to find the binary it unpacked. The plugin
     * uses {@code install.Platform}, so moving it is the lead's call.
     */
    @Test
    void packagesHaveNoCyclesButTheKnownOne() {
        slices().matching(CORE + ".(*)..").should().beFreeOfCycles()
                .ignoreDependency(CliLocator.class, Platform.class)
                .ignoreDependency(CliLocator.class, Platform.UnsupportedPlatformException.class)
                .check(CLASSES);
    }
}
