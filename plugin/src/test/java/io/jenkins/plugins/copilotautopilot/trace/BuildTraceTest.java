package io.jenkins.plugins.copilotautopilot.trace;

import io.jenkins.plugins.copilotautopilot.step.CopilotAutopilotBuilder;
import io.jenkins.plugins.copilotautopilot.step.CopilotAutopilotStep;
import io.jenkins.plugins.copilotautopilot.testing.CapturedSpans;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import io.jenkins.plugins.opentelemetry.JenkinsControllerOpenTelemetry;
import io.jenkins.plugins.opentelemetry.OpenTelemetryConfiguration;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * With the opentelemetry plugin tracing builds (its SDK exporting to memory here): the step's span gets the session's
 * outcome and numbers, and the real CLI's spans (one per run, model call and tool call) are recorded below it, in the
 * build's trace, Pipeline and Freestyle.
 */
@WithJenkins
@Timeout(300)
class BuildTraceTest {
    private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("copilot.autopilot.outcome");
    private static final AttributeKey<String> STEP_TYPE = AttributeKey.stringKey("jenkins.pipeline.step.type");

    private JenkinsRule j;

    @BeforeEach
    void traceToMemory(JenkinsRule rule) {
        this.j = rule;
        CapturedSpans.clear();
        OpenTelemetryConfiguration.TESTING_INMEMORY_MODE = true; // else no endpoint means no traces exporter at all
        JenkinsControllerOpenTelemetry.get().initialize(new OpenTelemetryConfiguration(Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Map.of(
                        "otel.traces.exporter", "copilot-test", "otel.metrics.exporter", "none", "otel.logs.exporter", "none",
                        "otel.bsp.schedule.delay", "20")));
    }

    @AfterEach
    void inMemoryModeOff() {
        OpenTelemetryConfiguration.TESTING_INMEMORY_MODE = false; // a Jenkins started later in this JVM starts unconfigured
    }

    @Test
    void thePipelineStepsSpanHasTheSessionAndTheClisSpansBelowIt() throws Exception {
        try (ScriptedModelServer model = ScriptedModelServer.start(Scripts.bashThenComplete("echo hi > hi.txt", "Wrote hi.txt."))) {
            WorkflowRun b = pipeline(model, "");

            j.assertLogContains("the opentelemetry plugin traces this build", b);
            j.assertLogContains("[copilot] OpenTelemetry: 5 of the CLI's spans recorded under this step's span", b);
            SpanData step = awaitSpan(s -> s.getAttributes().get(OUTCOME) != null);
            assertEquals("copilotAutopilot", step.getAttributes().get(STEP_TYPE), "the attributes are on the step's own span");
            assertSessionAttributes(step);
            assertClisSpansBelow(step);
        }
    }

    @Test
    void withOtelOffTheStepsSpanHasTheSessionOnly() throws Exception {
        try (ScriptedModelServer model = ScriptedModelServer.start(Scripts.bashThenComplete("echo hi > hi.txt", "Wrote hi.txt."))) {
            WorkflowRun b = pipeline(model, ", otel: false");

            j.assertLogNotContains("[copilot] OpenTelemetry:", b);
            SpanData step = awaitSpan(s -> s.getAttributes().get(OUTCOME) != null);
            assertSessionAttributes(step);
            assertThat(CapturedSpans.exported().stream().filter(s -> s.getTraceId().equals(step.getTraceId()))
                    .map(SpanData::getName).filter(n -> n.startsWith("invoke_agent") || n.startsWith("chat ")).toList(), empty());
        }
    }

    @Test
    void theFreestyleBuildStepsSpanHasTheSessionAndTheClisSpansBelowIt() throws Exception {
        try (ScriptedModelServer model = ScriptedModelServer.start(Scripts.bashThenComplete("echo hi > hi.txt", "Wrote hi.txt."))) {
            CopilotAutopilotStep task = TestPipelines.scriptedTask("Write hi.txt.", model);
            FreeStyleProject p = j.createFreeStyleProject();
            p.getBuildersList().add(new CopilotAutopilotBuilder(task));
            FreeStyleBuild b = j.buildAndAssertSuccess(p);

            j.assertLogContains("[copilot] OpenTelemetry: 5 of the CLI's spans recorded under this step's span", b);
            SpanData step = awaitSpan(s -> s.getAttributes().get(OUTCOME) != null);
            assertEquals("CopilotAutopilotBuilder", step.getAttributes().get(AttributeKey.stringKey("jenkins.pipeline.step.name")),
                    "the attributes are on the build step's own span");
            assertSessionAttributes(step);
            assertClisSpansBelow(step);
        }
    }

    private WorkflowRun pipeline(ScriptedModelServer model, String more) throws Exception {
        return j.buildAndAssertSuccess(TestPipelines.create(j, "node { copilotAutopilot prompt: 'Write hi.txt.', copilotPath: '"
                + TestCli.executable().path() + "', providerBaseUrl: '" + model.baseUrl()
                + "', model: 'fake-model', offline: true, allowAllTools: true" + more + " }"));
    }

    private static void assertSessionAttributes(SpanData step) {
        assertEquals("COMPLETED", step.getAttributes().get(OUTCOME));
        assertEquals(2L, step.getAttributes().get(AttributeKey.longKey("copilot.autopilot.turns")));
        assertEquals(2L, step.getAttributes().get(AttributeKey.longKey("copilot.autopilot.tool_calls")));
        assertEquals(0L, step.getAttributes().get(AttributeKey.longKey("copilot.autopilot.denied_tool_calls")));
        Long input = step.getAttributes().get(AttributeKey.longKey("gen_ai.usage.input_tokens"));
        Long output = step.getAttributes().get(AttributeKey.longKey("gen_ai.usage.output_tokens"));
        assertNotNull(input, "the tokens the CLI recorded");
        assertEquals(input + output, step.getAttributes().get(AttributeKey.longKey("copilot.autopilot.tokens")));
        assertEquals("fake-model", step.getAttributes().get(AttributeKey.stringKey("gen_ai.request.model")));
    }

    private static void assertClisSpansBelow(SpanData step) throws InterruptedException {
        SpanData run = awaitSpan(s -> s.getName().equals("invoke_agent") && s.getTraceId().equals(step.getTraceId()));
        assertEquals(step.getSpanId(), run.getParentSpanId(), "a run's span is a child of the step's");
        List<SpanData> below = awaitSpans(s -> s.getParentSpanId().equals(run.getSpanId()), 4);
        assertThat(below.stream().map(SpanData::getName).map(n -> n.replaceAll(" .*", "")).toList(),
                containsInAnyOrder("chat", "chat", "execute_tool", "execute_tool"));
        assertThat(below.stream().map(SpanData::getTraceId).toList(), everyItem(is(step.getTraceId())));
        below.forEach(s -> assertEquals("github.copilot", s.getInstrumentationScopeInfo().getName()));
        below.forEach(s -> assertThat("the CLI's times: within the run", s.getStartEpochNanos() >= run.getStartEpochNanos()
                && s.getEndEpochNanos() <= run.getEndEpochNanos(), is(true)));
        SpanData chat = below.stream().filter(s -> s.getName().startsWith("chat ")).findFirst().orElseThrow();
        assertNotNull(chat.getAttributes().get(AttributeKey.longKey("gen_ai.usage.input_tokens")), "the CLI's attributes are kept");
    }

    private static SpanData awaitSpan(Predicate<SpanData> which) throws InterruptedException {
        return awaitSpans(which, 1).get(0);
    }

    /** Waits (at most a minute) until the exporter has {@code count} spans that match. */
    private static List<SpanData> awaitSpans(Predicate<SpanData> which, int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (true) {
            List<SpanData> matching = CapturedSpans.exported().stream().filter(which).toList();
            if (matching.size() >= count || System.nanoTime() > deadline) {
                assertEquals(count, matching.size(), "exported spans: " + CapturedSpans.exported().stream().map(SpanData::getName).toList());
                return matching;
            }
            Thread.sleep(20);
        }
    }
}
