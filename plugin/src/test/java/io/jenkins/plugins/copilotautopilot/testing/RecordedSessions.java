package io.jenkins.plugins.copilotautopilot.testing;

import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.pages.SessionFiles;
import io.jenkins.plugins.copilotautopilot.pages.SessionRecord;

import com.fasterxml.jackson.databind.ObjectMapper;
import hudson.model.Run;
import io.jenkins.plugins.copilotautopilot.core.engine.AutopilotEngine;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.result.Activity;
import io.jenkins.plugins.copilotautopilot.core.result.Changes;
import io.jenkins.plugins.copilotautopilot.core.result.Ending;
import io.jenkins.plugins.copilotautopilot.core.result.ModelUsage;
import io.jenkins.plugins.copilotautopilot.core.testing.Captures;
import io.jenkins.plugins.copilotautopilot.core.testing.Commands;
import io.jenkins.plugins.copilotautopilot.core.testing.ListLogSink;
import io.jenkins.plugins.copilotautopilot.core.testing.ReplayLauncher;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.util.List;

/**
 * Sessions recorded straight into a finished build, the way a step records them, without running a step or a
 * CLI: the engine replays a real captured CLI output in-process, writes the journal into the build's folder, and
 * the record goes through {@link CopilotAutopilotRunAction#record}. Page tests use it so that they depend only on
 * what the pages read.
 */
public final class RecordedSessions {
    /** The happy capture's summary, replaced by {@link #withSummary}. */
    public static final String CAPTURED_SUMMARY = "Created hello.txt containing 'hello-from-fake-model'.";

    private final Run<?, ?> run;
    private String capture = "cli-happy";
    private String summary;
    private String said;
    private boolean agentTextPrivate;
    private String blocker;

    private RecordedSessions(Run<?, ?> run) {
        this.run = run;
    }

    public static RecordedSessions into(Run<?, ?> run) {
        return new RecordedSessions(run);
    }

    public RecordedSessions replaying(String captureName) {
        this.capture = captureName;
        return this;
    }

    /** Replaces the agent's summary (any text). */
    public RecordedSessions withSummary(String text) {
        this.summary = text;
        return this;
    }

    /** An assistant message in the first turn; {@link TestCredentials#TOKEN} in it is masked like a real token. */
    public RecordedSessions sayingFirst(String text) {
        this.said = text;
        return this;
    }

    /** Ends the task with the outcome {@code blocked} and this blocker (a JSON value). */
    public RecordedSessions blockedBy(String blockerJson) {
        this.blocker = blockerJson;
        return this;
    }

    /** As a step with {@code agentTextInConsole: false} records it: what the agent wrote is for readers of the workspace. */
    public RecordedSessions keepingAgentTextPrivate() {
        this.agentTextPrivate = true;
        return this;
    }

    /** Records one session with this invocation id, and its journal; returns the record. */
    public SessionRecord record(String invocationId) throws IOException {
        ObjectMapper json = new ObjectMapper();
        String stdout = Captures.stdoutText(capture);
        if (summary != null) {
            stdout = stdout.replace(json.writeValueAsString(CAPTURED_SUMMARY), json.writeValueAsString(summary));
        }
        if (blocker != null) {
            stdout = stdout.replace("\"success\": true}", "\"success\": false, \"outcome\": \"blocked\", \"blocker\": " + blocker + "}");
        }
        if (said != null) {
            int turnStart = stdout.indexOf('\n', stdout.indexOf("\"assistant.turn_start\"")) + 1;
            stdout = stdout.substring(0, turnStart)
                    + "{\"type\":\"assistant.message\",\"data\":{\"content\":" + json.writeValueAsString(said) + "}}\n"
                    + stdout.substring(turnStart);
        }
        File journal = SessionFiles.journal(run, invocationId);
        SessionResult result;
        try (OutputStream out = Files.newOutputStream(journal.toPath())) {
            result = AutopilotEngine.builder(new ListLogSink(false)).journalTo(out)
                    .extraSecrets(List.of(TestCredentials.TOKEN)).build()
                    .run(Commands.simple(), ReplayLauncher.ofText(stdout, Captures.exitCode(capture)));
        }
        SessionRecord record = new SessionRecord(invocationId, journal.getName(), result, agentTextPrivate);
        CopilotAutopilotRunAction.record(run, record);
        return record;
    }

    /** Records a session with these numbers and no journal (as after a failure to start). */
    public static SessionRecord recordNumbers(Run<?, ?> run, String invocationId, Outcome outcome, String summary, int turns,
                                       int toolCalls, int filesModified) throws IOException {
        SessionResult result = new SessionResult(new Ending(outcome, "The reason.", summary, null, null, 0, 61_000L, "session-1",
                "gpt-test"), new Activity(turns, toolCalls, 0, 0, 0, 0, List.of(), 0), new ModelUsage(1.0, null, null, null, null, null),
                new Changes(1, 1, filesModified, List.of(), null, false), null, null, null);
        SessionRecord record = new SessionRecord(invocationId, invocationId + ".jsonl", result);
        CopilotAutopilotRunAction.record(run, record);
        return record;
    }
}
