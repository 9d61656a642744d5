package io.jenkins.plugins.copilotautopilot.core.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
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
        for (String name : new String[] {"text", "events", "mask", "plan", "output", "approval", "otel", "quota", "verify", "session", "outcome", "command", "install", "journal",
            "render", "changes", "kept", "launch", "process", "report", "settings", "prepare", "engine", "runner", "demo"}) {
            layers = layers.layer(name).definedBy(CORE + "." + name + "..");
        }
        layers
                .whereLayer("text").mayNotAccessAnyLayer()
                .whereLayer("events").mayNotAccessAnyLayer()
                .whereLayer("mask").mayNotAccessAnyLayer()
                .whereLayer("plan").mayNotAccessAnyLayer()
                .whereLayer("output").mayOnlyAccessLayers("plan", "text")
                .whereLayer("approval").mayOnlyAccessLayers("plan")
                .whereLayer("otel").mayNotAccessAnyLayer()
                .whereLayer("quota").mayOnlyAccessLayers("text")
                .whereLayer("verify").mayOnlyAccessLayers("text")
                .whereLayer("session").mayOnlyAccessLayers("events", "text")
                .whereLayer("outcome").mayOnlyAccessLayers("session", "text", "verify")
                .whereLayer("command").mayOnlyAccessLayers("plan")
                .whereLayer("install").mayOnlyAccessLayers("command", "text")
                .whereLayer("journal").mayOnlyAccessLayers("events", "mask")
                .whereLayer("render").mayOnlyAccessLayers("approval", "changes", "command", "events", "mask", "outcome", "output", "plan", "session", "text", "verify")
                .whereLayer("changes").mayNotAccessAnyLayer()
                .whereLayer("launch").mayOnlyAccessLayers("approval", "changes", "command", "events", "output", "plan")
                .whereLayer("kept").mayOnlyAccessLayers("mask")
                .whereLayer("process").mayOnlyAccessLayers("approval", "changes", "command", "kept", "launch", "mask")
                .whereLayer("report").mayOnlyAccessLayers("changes", "events", "journal", "session", "text")
                .whereLayer("settings").mayOnlyAccessLayers("command", "outcome", "plan", "text")
                .whereLayer("prepare").mayOnlyAccessLayers("command", "mask", "otel", "output", "plan", "settings")
                .whereLayer("engine").mayOnlyAccessLayers("approval", "changes", "command", "events", "journal", "mask", "outcome", "process", "render",
                        "output", "session", "text", "verify", "plan")
                .whereLayer("runner").mayOnlyAccessLayers("approval", "command", "otel", "demo", "engine", "events", "kept", "mask", "outcome", "output", "plan", "prepare", "process", "render", "report", "settings")
                .whereLayer("demo").mayNotAccessAnyLayer()
                .whereLayer("launch").mayOnlyBeAccessedByLayers("process")
                .check(CLASSES);
    }

    @Test
    void onlyThePreparationCompletesAPlan() {
        noClasses().that().resideOutsideOfPackages(CORE + ".plan..", CORE + ".prepare..")
                .should().dependOnClassesThat().haveFullyQualifiedName(CORE + ".plan.PlanDraft")
                .because("a session's plan is made once, by its preparation, and nothing changes it after")
                .check(CLASSES);
    }

    @Test
    void packagesHaveNoCycles() {
        slices().matching(CORE + ".(*)..").should().beFreeOfCycles().check(CLASSES);
    }
}
