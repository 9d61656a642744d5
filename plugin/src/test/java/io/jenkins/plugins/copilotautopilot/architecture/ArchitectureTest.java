package io.jenkins.plugins.copilotautopilot.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The shape of the plugin, by role: the tool installation and the agent side at the bottom, the build's pages and
 * checks above them, running a session above those, the steps and their forms on top; no package depends on one
 * above it, and none on the core's runner. The arrows below are the real ones; a new one has to be added on purpose.
 */
class ArchitectureTest {
    private static final String PLUGIN = "io.jenkins.plugins.copilotautopilot";
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(PLUGIN);

    @Test
    void packagesDependDownwardOnly() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("tools").definedBy(PLUGIN + ".tools..")
                .layer("agent").definedBy(PLUGIN + ".agent..")
                .layer("pages").definedBy(PLUGIN + ".pages..")
                .layer("checks").definedBy(PLUGIN + ".checks..")
                .layer("trace").definedBy(PLUGIN + ".trace..")
                .layer("usage").definedBy(PLUGIN + ".usage..")
                .layer("session").definedBy(PLUGIN + ".session..")
                .layer("record").definedBy(PLUGIN + ".record..")
                .layer("follow").definedBy(PLUGIN + ".follow..")
                .layer("prepare").definedBy(PLUGIN + ".prepare..")
                .layer("step").definedBy(PLUGIN + ".step..")
                .whereLayer("tools").mayNotAccessAnyLayer()
                .whereLayer("agent").mayNotAccessAnyLayer()
                .whereLayer("pages").mayNotAccessAnyLayer()
                .whereLayer("checks").mayOnlyAccessLayers("pages")
                .whereLayer("trace").mayNotAccessAnyLayer()
                .whereLayer("usage").mayOnlyAccessLayers("pages")
                .whereLayer("session").mayOnlyAccessLayers("agent", "usage")
                .whereLayer("record").mayOnlyAccessLayers("agent", "pages", "trace")
                .whereLayer("follow").mayOnlyAccessLayers("agent", "pages", "checks", "trace", "usage", "session", "record")
                .whereLayer("prepare").mayOnlyAccessLayers("tools", "agent", "pages", "checks", "trace", "usage", "session", "record", "follow")
                .whereLayer("step").mayOnlyAccessLayers("tools", "agent", "pages", "trace", "session", "record", "follow", "prepare")
                .check(CLASSES);
    }

    @Test
    void packagesHaveNoCycles() {
        slices().matching(PLUGIN + ".(*)..").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void theRootPackageHoldsOnlyTheMessages() {
        classes().that().resideInAPackage(PLUGIN)
                .should().haveSimpleName("Messages")
                .because("every class has a role and the package of it; the root holds the generated Messages only")
                .check(CLASSES);
    }

    @Test
    void testsSitBesideWhatTheyTest() {
        JavaClasses tests = new ClassFileImporter().withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS).importPackages(PLUGIN);
        noClasses().should().resideInAPackage(PLUGIN)
                .because("a test sits in the package of what it tests, and what tests share in testing")
                .check(tests);
    }

    @Test
    void thePluginDoesNotRunTheCoresRunnerOrDemo() {
        noClasses().that().resideOutsideOfPackage(PLUGIN + ".core..").should().dependOnClassesThat().resideInAnyPackage(PLUGIN + ".core.runner..", PLUGIN + ".core.demo..")
                .because("the runner and the demo are the command line's; Jenkins starts sessions through the engine")
                .check(CLASSES);
    }
}
