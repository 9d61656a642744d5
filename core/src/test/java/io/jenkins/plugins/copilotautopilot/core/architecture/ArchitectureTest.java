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
        for (String name : new String[] {"files", "slots", "text", "events", "mask", "plan", "output", "approval", "otel", "quota", "verify", "session", "outcome", "command", "install", "journal",
            "render", "changes", "kept", "launch", "process", "result", "parts", "report", "build", "prepare", "engine", "runner", "demo"}) {
            layers = layers.layer(name).definedBy(CORE + "." + name + "..");
        }
        layers
                .whereLayer("files").mayNotAccessAnyLayer()
                .whereLayer("slots").mayNotAccessAnyLayer()
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
                .whereLayer("install").mayOnlyAccessLayers("command", "files", "text")
                .whereLayer("journal").mayOnlyAccessLayers("events", "mask")
                .whereLayer("render").mayOnlyAccessLayers("approval", "changes", "command", "events", "mask", "outcome", "output", "plan", "session", "text", "verify")
                .whereLayer("changes").mayNotAccessAnyLayer()
                .whereLayer("launch").mayOnlyAccessLayers("approval", "changes", "command", "events", "files", "output", "plan")
                .whereLayer("kept").mayOnlyAccessLayers("mask")
                .whereLayer("process").mayOnlyAccessLayers("approval", "changes", "command", "files", "kept", "launch", "mask")
                .whereLayer("result").mayOnlyAccessLayers("changes", "events", "outcome", "output", "session")
                .whereLayer("parts").mayOnlyAccessLayers("approval", "changes", "events", "journal", "mask", "outcome", "output", "plan",
                        "process", "render", "result", "session", "text", "verify")
                .whereLayer("report").mayOnlyAccessLayers("changes", "events", "journal", "session", "text")
                .whereLayer("build").mayOnlyAccessLayers("command", "outcome", "plan", "text")
                .whereLayer("prepare").mayOnlyAccessLayers("command", "mask", "otel", "output", "plan", "build")
                .whereLayer("engine").mayOnlyAccessLayers("approval", "changes", "command", "events", "journal", "mask", "outcome", "parts", "process", "render",
                        "output", "result", "session", "text", "verify", "plan")
                .whereLayer("runner").mayOnlyAccessLayers("approval", "command", "otel", "demo", "engine", "events", "files", "kept", "mask", "outcome", "output", "parts", "plan", "prepare", "process", "render", "report", "result", "build")
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
