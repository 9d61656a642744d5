package io.jenkins.plugins.copilotautopilot.core.engine;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.report.SessionReportReader;
import io.jenkins.plugins.copilotautopilot.core.report.TimelineSvg;
import io.jenkins.plugins.copilotautopilot.core.session.SessionListener;
import io.jenkins.plugins.copilotautopilot.core.session.ToolCall;
import io.jenkins.plugins.copilotautopilot.core.testing.E2eRun;
import io.jenkins.plugins.copilotautopilot.core.testing.ProcessTable;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Scripts;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Untrusted prompts, leaked secrets and hostile agent text, end to end with the real CLI. */
@Timeout(120)
class HostileInputTest {

    @Test
    void hostilePromptsReachTheModelByteForByte() throws Exception {
        StringBuilder prompt = new StringBuilder("-starts with a dash; \"double\" 'single' `backticks` $(rm -rf /) ${HOME} $$ \\ back\\slash\n"
                + "second line\ttab \u00fcnic\u00f6de \u4e2d\u6587 \u05e2\u05d1\u05e8\u05d9\u05ea \ud83d\ude80 & < > |; &&\n");
        while (prompt.length() < 100_000) {
            prompt.append("filler line ").append(prompt.length()).append(" with $PATH and `x`\n");
        }
        String task = prompt.toString();
        List<String> argv = new java.util.concurrent.CopyOnWriteArrayList<>();
        E2eRun run = E2eRun.with(request -> {
                    // the CLI waits for this reply, so it is alive now (an instant model outruns a look at a turn's start)
                    if (argv.isEmpty()) {
                        ProcessHandle.current().descendants().forEach(p -> argv.addAll(List.of(ProcessTable.cmdline(p.pid()).split("\0"))));
                    }
                    return Reply.taskComplete("Read it.");
                }).prompt(task)
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.COMPLETED);
        // the kernel's copy of every argument of the CLI and its launch script: the task is on none of them
        // (it reaches the CLI on standard input, read from a file), so no shell or quoting can touch it
        assertThat(argv).anyMatch(a -> a.endsWith("/copilot")).anyMatch(a -> a.equals("--autopilot"))
                .noneMatch(a -> a.contains("backticks") || a.contains("filler line") || a.contains("--prompt"));
        JsonNode firstAgentRequest = run.server.requests().stream().filter(r -> r.path("tools").size() > 0).findFirst().orElseThrow();
        List<String> userContents = new ArrayList<>();
        for (JsonNode message : firstAgentRequest.path("messages")) {
            if ("user".equals(message.path("role").asText())) {
                JsonNode content = message.path("content");
                if (content.isTextual()) {
                    userContents.add(content.asText());
                } else {
                    content.forEach(part -> userContents.add(part.path("text").asText()));
                }
            }
        }
        assertThat(userContents).anyMatch(c -> c.contains(task.strip())); // the CLI trims it for the model
        // and the CLI got it exactly: its user.message event holds the task byte for byte
        JsonNode userMessage = run.rawStdout.lines().map(HostileInputTest::json)
                .filter(e -> "user.message".equals(e.path("type").asText())).findFirst().orElseThrow();
        assertThat(userMessage.path("data").path("content").asText()).isEqualTo(task);
    }

    private static JsonNode json(String line) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(line);
        } catch (java.io.IOException e) {
            return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        }
    }

    @Test
    void secretsNeverLeakInAnyForm() throws Exception {
        String token = "github_pat_hostileToken_0123456789ABCDEF";
        String apiKey = "sk-\"quoted\\back-0987654321";
        String base64OfUserToken = Base64.getEncoder().encodeToString(("user:" + token).getBytes(StandardCharsets.UTF_8));
        String split = "printf '%s\\n%s\\n' github_pat_hostileToken_ 0123456789ABCDEF";
        List<String> cmdlines = new ArrayList<>();
        E2eRun run = E2eRun.with(request -> {
                    if (!request.used("bash")) {
                        return Reply.bash(split + "; echo " + base64OfUserToken, 30)
                                .withText("Key is " + apiKey + " and token " + token);
                    }
                    return request.used("task_complete") ? Reply.text("done")
                            : Reply.taskComplete("Leaked " + token + " and " + apiKey + " and " + base64OfUserToken);
                })
                .apiKey(apiKey)
                .options(o -> o.set(ALLOW_ALL_TOOLS, true).githubToken(token))
                .listener(new SessionListener() {
                    @Override
                    public void onToolStarted(ToolCall call) {
                        // the command lines this side builds (the launch, the CLI); the tool's own shell, when it is
                        // already there, carries the model's command, secret and all, as the model wrote it
                        ProcessHandle.current().descendants().map(p -> ProcessTable.cmdline(p.pid()))
                                .filter(c -> !c.contains(split)).forEach(cmdlines::add);
                    }
                })
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(cmdlines).isNotEmpty();
        String everything = run.log.text() + "\n" + run.journalText() + "\n" + run.result.toMap() + "\n" + String.join("\n", cmdlines);
        for (String secret : List.of(token, apiKey, base64OfUserToken, "hostileToken_0123456789ABCDEF")) {
            assertThat(everything).doesNotContain(secret);
        }
        // the raw stream carried what the engine had to mask
        assertThat(run.rawStdout).contains("github_pat_hostileToken_\\n0123456789ABCDEF");
    }

    @Test
    void aSecretInAnErrorMessageIsMasked() throws Exception {
        String apiKey = "sk-error-message-secret-4242";
        E2eRun run = E2eRun.with(Scripts.always(Reply.status(400, "invalid api key " + apiKey + " for this model")))
                .apiKey(apiKey)
                .run();
        assertThat(run.result.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(run.result.reason()).contains("invalid api key ****").contains(" for this model").doesNotContain(apiKey);
        assertThat(run.log.text()).doesNotContain(apiKey);
        assertThat(run.journalText()).doesNotContain(apiKey);
    }

    @Test
    void hostileAgentTextIsNeutralisedInTheLogTheReportAndTheTimeline() throws Exception {
        String hostile = "<script>alert(1)</script> \"><img src=x onerror=alert(2)> [click](javascript:alert(3)) "
                + "\u001b[31mred\u001b[0m \u001b]0;title\u0007 \u202Eevil";
        String longText = "x".repeat(200_000);
        E2eRun run = E2eRun.with(request -> request.turn() == 1
                        ? Reply.bash("echo '" + hostile.replace("'", "") + "'", 30).withText(hostile + "\n" + longText)
                        : request.used("task_complete") ? Reply.text("ok") : Reply.taskComplete(hostile))
                .options(o -> o.set(ALLOW_ALL_TOOLS, true))
                .run();

        assertThat(run.result.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(run.log.text()).doesNotContain("\u001b").doesNotContain("\u202E").doesNotContain("\u0007");
        assertThat(run.log.lines()).allMatch(l -> l.length() < 21_000);
        assertThat(run.log.find("xxxx")).endsWith("…");

        String svg = TimelineSvg.render(SessionReportReader.read(run.journal));
        assertThat(svg).doesNotContain("<script").doesNotContain("<img").doesNotContain("\u001b");
        assertThat(svg).contains("&lt;script&gt;alert(1)&lt;/script&gt;");
    }
}
