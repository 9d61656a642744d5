package io.jenkins.plugins.copilotautopilot.agent;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

import hudson.model.Result;
import hudson.remoting.Channel;
import hudson.remoting.Command;
import hudson.remoting.Request;
import io.jenkins.plugins.copilotautopilot.testing.AgentJvm;
import io.jenkins.plugins.copilotautopilot.testing.FakeCopilot;
import io.jenkins.plugins.copilotautopilot.testing.TestCredentials;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/**
 * A watched session reaches the controller as a stream, not as calls: pieces of a tool's output are held on the agent
 * while what a person waits for (a message) comes at once, and the agent makes no call per hand-over; after the end it
 * deletes the session's folders itself, without being asked.
 */
@WithJenkins
class HandOverStreamTest {
    private JenkinsRule j;
    private long hold;
    @TempDir
    Path tmp;

    @BeforeEach
    void setUp(JenkinsRule rule) throws Exception {
        this.j = rule;
        TestCredentials.addToken(j);
        hold = AgentSession.HOLD_MILLIS;
    }

    @AfterEach
    void restore() {
        AgentSession.HOLD_MILLIS = hold;
    }

    @Test
    void piecesWaitWhatAPersonWaitsForComesAtOnceAndNoHandOverIsACall() throws Exception {
        AgentJvm.add(j, "streaming", tmp.resolve("agent"));
        // pieces alone would wait ten minutes: the message after them must not
        AgentSession.HOLD_MILLIS = 600_000;
        Path goOn = tmp.resolve("go-on");
        FakeCopilot fake = FakeCopilot.in(tmp.resolve("cli")).replaying("cli-happy")
                .streamingAfterTheFirstTurn(60, "All pieces written").pausingAfterTheFirstTurnUntil(goOn);
        WorkflowJob p = TestPipelines.create(j, "node('streaming') { copilotAutopilot prompt: 'Create hello.txt', "
                + "credentialsId: 'copilot-token', copilotPath: '" + fake.write() + "' }");
        // a first build loads the plugin's classes into the agent (calls of their own)
        Files.createFile(goOn);
        j.assertBuildStatus(Result.SUCCESS, p.scheduleBuild2(0));
        Files.delete(goOn);

        AtomicInteger callsFromTheAgent = new AtomicInteger();
        AtomicInteger commandsFromTheAgent = new AtomicInteger();
        AtomicInteger deletionsAsked = new AtomicInteger();
        Channel channel = (Channel) j.jenkins.getComputer("streaming").getChannel();
        channel.addListener(new Channel.Listener() {
            @Override
            public void onRead(Channel c, Command cmd, long blockSize) {
                commandsFromTheAgent.incrementAndGet();
                // the calls of the hand-over (a remote method names its interface), not remoting's own (a ping, a class)
                if (cmd instanceof Request && cmd.toString().contains(SessionInbox.class.getName())) {
                    callsFromTheAgent.incrementAndGet();
                }
            }

            @Override
            public void onWrite(Channel c, Command cmd, long blockSize) {
                if (cmd instanceof Request && cmd.toString().contains(DeleteSessionFoldersCallable.class.getSimpleName())) {
                    deletionsAsked.incrementAndGet();
                }
            }
        });
        WorkflowRun b = p.scheduleBuild2(0).waitForStart();
        // the CLI waits now, after 60 pieces (3 s) and the message: the message is in the log while it waits
        j.waitForMessage("All pieces written", b);
        int callsWhileItRan = callsFromTheAgent.get();
        Files.createFile(goOn);
        j.assertBuildStatus(Result.SUCCESS, j.waitForCompletion(b));

        assertEquals(0, callsWhileItRan, "no call from the agent to hand the session over while it runs");
        assertEquals(1, callsFromTheAgent.get(), "one call at the end (the exit status, what the session left)");
        assertThat("the session came as a stream", commandsFromTheAgent.get(), greaterThan(0));
        assertEquals(0, deletionsAsked.get(), "the agent deleted the session's folders once the controller had the end");
        try (var files = Files.walk(tmp.resolve("agent"))) {
            assertEquals(List.of(), files.filter(f -> f.getFileName().toString().startsWith("copilot-autopilot-")).toList(),
                    "no session folder left on the agent");
        }
        String log = JenkinsRule.getLog(b);
        assertThat(log, not(containsString("Could not delete")));
        for (String line : new String[] {"All pieces written", "[copilot] Turn 1", "[copilot] Turn 2", "[copilot] COMPLETED"}) {
            assertEquals(1, log.lines().filter(l -> l.contains(line)).count(), line);
        }
    }
}
