package io.jenkins.plugins.copilotautopilot.agent;

import io.jenkins.plugins.copilotautopilot.testing.AgentJvm;
import io.jenkins.plugins.copilotautopilot.testing.LiveApprovals;
import io.jenkins.plugins.copilotautopilot.testing.TestPipelines;

import hudson.model.Result;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import io.jenkins.plugins.copilotautopilot.core.testing.TestCli;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.jenkinsci.plugins.workflow.steps.FlowInterruptedException;
import org.jenkinsci.plugins.workflow.steps.StepExecution;
import org.jenkinsci.plugins.workflow.steps.TimeoutStepExecution;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The step in docker-workflow's {@code docker.image(…).inside {}} against a real Docker engine, on an agent that runs
 * as an ordinary user, as real agents do: {@code inside} then runs the container as that user ({@code docker run -u
 * 1001:1001}), whose {@code HOME} there is {@code /}. What it needs is set up as in
 * <a href="../../../../../../../../docs/testing.md#real-docker">docs/testing.md</a>: a Docker engine this machine's
 * user {@value #USER} may use, the images {@value #IMAGE} (Debian minbase with procps) and {@value #IMAGE_WITHOUT_PS}
 * (without {@code ps}), made locally (no registry is needed), and root to start that user's agent. Containers use the
 * host's network only. What each test checks inside the container, it checks while the container still runs.
 */
@WithJenkins
@Timeout(600)
class RealDockerTest {
    static final String USER = "jenkins-agent";
    static final String IMAGE = "copilot-debian:12";
    static final String IMAGE_WITHOUT_PS = "copilot-debian-nops:12";
    /** {@value #IMAGE} with bubblewrap, slirp4netns, iptables and iproute2: what the CLI's sandbox needs. */
    static final String SANDBOX_IMAGE = "copilot-debian-sandbox:12";
    /** What bubblewrap needs in a container, as the help says. */
    static final String SANDBOX_SECURITY = "--security-opt seccomp=unconfined --security-opt systempaths=unconfined";

    private JenkinsRule j;
    private Path agentRoot;

    @BeforeAll
    static void theEngineAndTheImagesAreThere() throws Exception {
        for (String image : List.of(IMAGE, IMAGE_WITHOUT_PS, SANDBOX_IMAGE)) {
            Run inspect = run("docker", "image", "inspect", "--format", "{{.Id}}", image);
            assertEquals(0, inspect.code, "RealDockerTest needs a running Docker engine and the local image " + image
                    + " (see docs/testing.md, \"Real Docker\"): " + inspect.output);
        }
        assertEquals(0, run("id", "-u", USER).code, "RealDockerTest needs the OS user " + USER + " (see docs/testing.md)");
    }

    @BeforeEach
    void anAgentRunningAsAnOrdinaryUser(JenkinsRule rule) throws Exception {
        j = rule;
        agentRoot = Files.createTempDirectory(Path.of("/tmp"), "docker-agent-");
        Files.setPosixFilePermissions(agentRoot, PosixFilePermissions.fromString("rwx------"));
        UserPrincipal user = agentRoot.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(USER);
        Files.setOwner(agentRoot, user);
        AgentJvm.add(j, "docker-agent", agentRoot, USER);
    }

    /** The agent's folder holds a CLI cache of 235 MB: gone with the test, the agent disconnected first. */
    @AfterEach
    void deleteTheAgentsFolder() throws Exception {
        hudson.model.Computer agent = j.jenkins.getComputer("docker-agent");
        if (agent != null) {
            agent.disconnect(null).get(60, TimeUnit.SECONDS);
        }
        deleteTree(agentRoot);
    }

    static void deleteTree(Path root) throws IOException {
        try (var files = Files.walk(root)) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        }
    }

    /** The CLI folder mounted read-only at the same path, so that the step's {@code copilotPath} works in the container. */
    static String insideArgs() {
        String cli = TestCli.executable().path().toString();
        String folder = cli.substring(0, cli.indexOf("/node_modules/"));
        return "--network host -v " + folder + ":" + folder + ":ro";
    }

    private static String step(ScriptedModelServer model, String more) {
        return "copilotAutopilot prompt: 'Work in the container.', copilotPath: '" + TestCli.executable().path() + "', providerBaseUrl: '"
                + model.baseUrl() + "', model: 'fake-model', offline: true, allowAllTools: true" + more;
    }

    private WorkflowJob pipeline(String image, String body) throws Exception {
        return pipeline(image, "", body);
    }

    private WorkflowJob pipeline(String image, String moreArgs, String body) throws Exception {
        return TestPipelines.create(j, "node('docker-agent') {\n  docker.image('" + image + "').inside('" + insideArgs() + moreArgs
                + "') {\n" + body + "\n  }\n}");
    }

    private Path workspace(WorkflowJob p) {
        return agentRoot.resolve("workspace").resolve(p.getName());
    }

    @Test
    void aCallApprovedWhileItWaitsInTheContainerRunsThere() throws Exception {
        try (ScriptedModelServer model = ScriptedModelServer.start(ScriptedModelServer.Scripts.bashThenComplete("touch approved.txt", "Touched it."))) {
            WorkflowJob p = pipeline(IMAGE, "    " + step(model, ", approveTools: ['shell(touch)']"));
            WorkflowRun b = p.scheduleBuild2(0).waitForStart();
            io.jenkins.plugins.copilotautopilot.core.approval.PendingApproval call = LiveApprovals.waiting(b);
            j.assertLogContains("[copilot] Waiting for approval (approveTools shell(touch)): bash touch approved.txt", b);
            assertTrue(LiveApprovals.live(b).approvals().decide(call.id(), true, "builder", System.currentTimeMillis()));

            j.assertBuildStatusSuccess(j.waitForCompletion(b));
            j.assertLogContains("[copilot] Approved by builder at ", b);
            assertTrue(Files.exists(workspace(p).resolve("approved.txt")), "the hook in the container let the call run");
            assertNoSessionFolder(workspace(p));
        }
    }

    @Test
    void asAnOrdinaryUserTheCliGetsAHomeAndACacheThatTheNextBuildReuses() throws Exception {
        String work = "id -u > who.txt; printf %s \"$HOME\" > home.txt; touch \"$HOME/written\" && echo yes > home-writable.txt";
        try (ScriptedModelServer model = ScriptedModelServer.start(ScriptedModelServer.Scripts.bashThenCompleteEachPrompt(work, "Done."))) {
            WorkflowJob p = pipeline(IMAGE, "    def r = " + step(model, "") + "\n    echo \"outcome=${r.outcome}\"");
            WorkflowRun first = j.buildAndAssertSuccess(p);
            j.assertLogContains("outcome=COMPLETED", first);
            j.assertLogContains("docker run", first);
            j.assertLogNotContains("EACCES", first);
            Path ws = workspace(p);
            assertEquals("1001", Files.readString(ws.resolve("who.txt")).strip(), "the tool ran as the agent's user");
            assertEquals("yes", Files.readString(ws.resolve("home-writable.txt")).strip());
            String home = Files.readString(ws.resolve("home.txt"));
            assertThat("a home of the session's own, not /", home, containsString("@tmp/"));
            Path marker = extractionMarker(ws.resolveSibling(ws.getFileName() + "@tmp").resolve("copilot-cache-1001"));
            FileTime unpacked = Files.getLastModifiedTime(marker);

            WorkflowRun second = j.buildAndAssertSuccess(p);
            j.assertLogContains("outcome=COMPLETED", second);
            assertEquals(unpacked, Files.getLastModifiedTime(marker), "the second build did not unpack the CLI again");
            assertNoSessionFolder(ws);
        }
    }

    /** The file the CLI writes once it has unpacked itself into {@code cache}. */
    private static Path extractionMarker(Path cache) throws IOException {
        try (var files = Files.walk(cache)) {
            return files.filter(f -> f.getFileName().toString().equals(".extraction-complete")).findFirst()
                    .orElseThrow(() -> new AssertionError("the CLI's cache is not in " + cache));
        }
    }

    @Test
    void anAbortStopsTheCliAndItsToolInTheContainer() throws Exception {
        try (ScriptedModelServer model = ScriptedModelServer.start(ScriptedModelServer.Scripts.bashThenComplete("sleep 311", "Slept."))) {
            WorkflowRun b = pipeline(IMAGE, "    " + step(model, "")).scheduleBuild2(0).waitForStart();
            String container = awaitProcessInAContainer("sleep 311", b);
            b.doStop();
            j.assertBuildStatus(Result.ABORTED, j.waitForCompletion(b));
            j.assertLogContains("the Copilot CLI was stopped", b);
            assertEquals("", hostProcesses("sleep 311"), "nothing of the session left on the host");
            assertThat("the container is gone with the block", run("docker", "ps", "-q", "--no-trunc").output, not(containsString(container)));
        }
    }

    @Test
    void aTimeoutStopsTheCliAndItsToolWhileTheContainerRunsOn() throws Exception {
        stoppedInside(IMAGE, "sleep 312", true, "", "[copilot] ABORTED:");
    }

    @Test
    void aBudgetStopsTheCliAndItsToolWhileTheContainerRunsOn() throws Exception {
        stoppedInside(IMAGE, "sleep 314", false, ", maxTokens: 10", "[copilot] OVER_BUDGET:");
    }

    @Test
    void inAnImageWithoutPsTheWatchdogStopsTheCli() throws Exception {
        // docker-workflow's kill needs ps in the container ("failed to run ps"): the launch script's watchdog stops it
        WorkflowRun b = stoppedInside(IMAGE_WITHOUT_PS, "sleep 313", true, "", "[copilot] ABORTED:");
        j.assertLogContains("[copilot] The launcher's kill did not succeed", b);
    }

    /**
     * The step stopped as a {@code timeout {}} around it stops it once its tool runs ({@link #timesOut}), or by its own
     * budget; then, in the same container, which still runs, no process of the session is left.
     */
    private WorkflowRun stoppedInside(String image, String tool, boolean timeout, String more, String closing) throws Exception {
        return stoppedInside(image, "", tool, timeout, more, closing);
    }

    private WorkflowRun stoppedInside(String image, String args, String tool, boolean timeout, String more, String closing) throws Exception {
        try (ScriptedModelServer model = ScriptedModelServer.start(ScriptedModelServer.Scripts.bashThenComplete(tool, "Slept."))) {
            String ps = image.equals(IMAGE_WITHOUT_PS) ? "cat /proc/[0-9]*/cmdline | tr '\\\\000' ' '" : "ps -eo args";
            String session = step(model, more);
            WorkflowRun b = pipeline(image, args, "    try {\n"
                    + "      " + session + "\n"
                    + "    } catch (err) {\n      echo \"stopped: ${err}\"\n    }\n"
                    + "    sh \"echo left-after:; " + ps + "\"").scheduleBuild2(0).waitForStart();
            if (timeout) {
                awaitProcessInAContainer(tool, b);
                timesOut(b);
            } // a budget may stop the session before its tool starts: what is checked is that nothing is left
            j.waitForCompletion(b);
            j.assertLogContains(closing, b);
            j.assertLogContains("stopped: ", b);
            String log = JenkinsRule.getLog(b);
            // what has ended but was never reaped (the container's PID 1 is docker-workflow's cat) is not left running
            String after = log.substring(log.lastIndexOf("left-after:")).lines().filter(l -> !l.endsWith("<defunct>"))
                    .collect(java.util.stream.Collectors.joining("\n"));
            assertThat(after, not(containsString(tool)));
            assertThat(after, not(containsString("copilot-linux-x64/copilot")));
            assertThat(after, not(containsString("bwrap")));
            assertThat(after, not(containsString("slirp4netns")));
            assertEquals("", hostProcesses(tool), "nothing of the session left on the host");
            return b;
        }
    }

    @Test
    void aCacheMountedFromTheAgentIsUnpackedOnceForEveryJob() throws Exception {
        // the README's way to share one CLI cache between jobs: a folder of the agent's user, mounted in each container
        Path cache = Files.createDirectories(agentRoot.resolve("copilot-cli-cache"));
        Files.setOwner(cache, agentRoot.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(USER));
        String mount = " -v " + cache + ":/copilot-cache -e XDG_CACHE_HOME=/copilot-cache";
        try (ScriptedModelServer model = ScriptedModelServer.start(ScriptedModelServer.Scripts.bashThenCompleteEachPrompt("true", "Done."))) {
            WorkflowJob first = pipeline(IMAGE, mount, "    " + step(model, ""));
            j.buildAndAssertSuccess(first);
            Path marker = extractionMarker(cache);
            FileTime unpacked = Files.getLastModifiedTime(marker);
            WorkflowJob second = pipeline(IMAGE, mount, "    " + step(model, ""));
            j.buildAndAssertSuccess(second);
            assertEquals(unpacked, Files.getLastModifiedTime(marker), "another job did not unpack the CLI again");
            for (WorkflowJob p : List.of(first, second)) {
                assertTrue(Files.notExists(workspace(p).resolveSibling(workspace(p).getFileName() + "@tmp").resolve("copilot-cache-1001")),
                        "no cache of the job's own");
            }
        }
    }

    @Test
    void asRootInTheContainerOfAnAgentRunningAsAUserTheSessionIsFollowedAndLeavesNothingBehind() throws Exception {
        // inside('-u root'): the CLI's home is root's and private, yet the agent (uid 1001) reads its usage records
        // (a token budget stops the session) and deletes the session's folders at the end
        try (ScriptedModelServer model = ScriptedModelServer.start(ScriptedModelServer.Scripts.bashThenCompleteEachPrompt("id -u > who.txt", "Done."))) {
            WorkflowJob p = pipeline(IMAGE, " -u root", "    def r = " + step(model, "") + "\n    echo \"outcome=${r.outcome}\"\n"
                    + "    try {\n      " + step(model, ", maxTokens: 10") + "\n    } catch (err) {\n      echo \"stopped: ${err}\"\n    }");
            WorkflowRun b = j.buildAndAssertSuccess(p);
            j.assertLogContains("outcome=COMPLETED", b);
            j.assertLogContains("[copilot] OVER_BUDGET:", b);
            j.assertLogNotContains("Could not delete", b);
            Path ws = workspace(p);
            assertEquals("0", Files.readString(ws.resolve("who.txt")).strip(), "the tool ran as root");
            assertNoSessionFolder(ws);
        }
    }

    @Test
    void aFolderTheAgentMayNotDeleteIsOneLineSayingWhyAndIsNotRetried() throws Exception {
        // what a session run as root leaves when it could not hand its folder over (its container was killed): here,
        // without a container, a folder of root's made in the session's control folder while the session runs
        try (ScriptedModelServer model = ScriptedModelServer.start(ScriptedModelServer.Scripts.bashThenComplete(
                "while [ ! -f go ]; do sleep 0.2; done", "Went."))) {
            WorkflowJob p = TestPipelines.create(j, "node('docker-agent') {\n  " + step(model, "") + "\n}");
            WorkflowRun b = p.scheduleBuild2(0).waitForStart();
            Path ws = workspace(p);
            Path control = awaitControlFolder(ws, b);
            Path roots = Files.createDirectories(control.resolve("roots"));
            Files.writeString(roots.resolve("file"), "root's");
            Files.writeString(ws.resolve("go"), "");
            j.assertBuildStatusSuccess(j.waitForCompletion(b));
            j.assertLogContains("[copilot] Could not delete the session's folder", b);
            j.assertLogContains("permission denied for " + roots.resolve("file") + " (the agent runs as " + USER + ")", b);
            j.assertLogContains("delete it as that user", b);
            j.assertLogNotContains("trying again", b);
            assertTrue(Files.exists(roots.resolve("file")));
        }
    }

    /** The control folder of the session running in workspace {@code ws}: where the launch script beats. */
    private static Path awaitControlFolder(Path ws, WorkflowRun b) throws Exception {
        Path tmp = ws.resolveSibling(ws.getFileName() + "@tmp");
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.isDirectory(tmp)) {
                try (var files = Files.walk(tmp)) {
                    var heartbeat = files.filter(f -> f.getFileName().toString().equals("heartbeat")).findFirst();
                    if (heartbeat.isPresent()) {
                        return heartbeat.get().getParent();
                    }
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no session's heartbeat in " + tmp + " within 120 s; the build's log:\n" + JenkinsRule.getLog(b));
    }

    private static void assertNoSessionFolder(Path ws) throws IOException {
        try (var files = Files.walk(ws.resolveSibling(ws.getFileName() + "@tmp"))) {
            assertEquals(List.of(), files.filter(f -> f.toString().contains("copilot-autopilot-")).toList(), "no session folder left");
        }
    }

    @Test
    void inAContainerWithoutWhatBubblewrapNeedsTheSandboxIsOneLineBeforeTheCliStarts() throws Exception {
        try (ScriptedModelServer model = ScriptedModelServer.start(ScriptedModelServer.Scripts.bashThenComplete("echo in > made.txt", "Made."))) {
            WorkflowJob p = pipeline(SANDBOX_IMAGE, tunDevice(), "    " + step(model, ", sandbox: true"));
            WorkflowRun b = j.buildAndAssertStatus(Result.FAILURE, p);
            j.assertLogContains("sandbox is on, but this machine cannot run the", b);
            j.assertLogContains("namespaces", b);
            assertEquals(List.of(), model.requests(), "the model was never asked");
            assertTrue(Files.notExists(workspace(p).resolve("made.txt")));
        }
    }

    @Test
    void theSandboxRunsTheAgentsCommandsInAContainerRunAsTheAgentsUserAndKeepsOutWhatItSays() throws Exception {
        Path outside = Files.createDirectories(agentRoot.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "outside-the-workspace");
        String probe = "echo in > made.txt; id -u > who.txt; (cat /outside/secret.txt || echo unreadable) > seen.txt 2>/dev/null;"
                + " (touch /etc/sandbox-probe && echo written || echo refused) > etc.txt 2>/dev/null";
        try (ScriptedModelServer model = ScriptedModelServer.start(ScriptedModelServer.Scripts.bashThenComplete(probe, "Probed."))) {
            WorkflowJob p = pipeline(SANDBOX_IMAGE, tunDevice() + " " + SANDBOX_SECURITY + " -v " + outside + ":/outside:ro",
                    "    def r = " + step(model, ", sandbox: true, allowAllPaths: true") + "\n    echo \"outcome=${r.outcome}\"");
            WorkflowRun b = j.buildAndAssertSuccess(p);
            j.assertLogContains("outcome=COMPLETED", b);
            Path ws = workspace(p);
            assertTrue(Files.exists(ws.resolve("made.txt")), "the workspace is writable in the sandbox; the build's log:\n" + JenkinsRule.getLog(b));
            assertEquals("in", Files.readString(ws.resolve("made.txt")).strip());
            assertEquals("1001", Files.readString(ws.resolve("who.txt")).strip());
            assertEquals("unreadable", Files.readString(ws.resolve("seen.txt")).strip(), "a folder outside the workspace is not there");
            assertEquals("refused", Files.readString(ws.resolve("etc.txt")).strip(), "/etc is read-only");
        }
    }

    @Test
    void aTimeoutStopsTheSandboxedToolAndItsSandboxInTheContainer() throws Exception {
        stoppedInside(SANDBOX_IMAGE, tunDevice() + " " + SANDBOX_SECURITY, "sleep 316", true, ", sandbox: true", "[copilot] ABORTED:");
    }

    /**
     * {@code /dev/net/tun} for slirp4netns, usable by the container's user: Docker's {@code --device} would hand it over
     * as the host's node (root's, mode 600), so a node of mode 666 is mounted and the device allowed.
     */
    private String tunDevice() throws Exception {
        Path tun = agentRoot.resolve("tun");
        Run mknod = run("mknod", "-m", "666", tun.toString(), "c", "10", "200");
        assertEquals(0, mknod.code, "mknod " + tun + ": " + mknod.output);
        return " -v " + tun + ":/dev/net/tun --device-cgroup-rule \\'c 10:200 rwm\\'";
    }

    @Test
    void withDockerContainerRunsTheStepToo() throws Exception {
        try (ScriptedModelServer model = ScriptedModelServer.start(ScriptedModelServer.Scripts.bashThenComplete("id -u > who.txt", "Done."))) {
            WorkflowJob p = TestPipelines.create(j, "node('docker-agent') {\n  withDockerContainer(image: '" + IMAGE + "', args: '"
                    + insideArgs() + "') {\n    " + step(model, "") + "\n  }\n}");
            WorkflowRun b = j.buildAndAssertSuccess(p);
            j.assertLogContains("COMPLETED", b);
            assertEquals("1001", Files.readString(workspace(p).resolve("who.txt")).strip());
        }
    }

    /** Waits until a process whose command line holds {@code command} runs in a container; returns the container's id. */
    /**
     * Stops the build's {@code copilotAutopilot} step as its {@code timeout} does when its time is up (the cause
     * {@link TimeoutStepExecution.ExceededTimeout}), once what the test waits for runs: a timeout of a fixed length
     * would race the CLI's first start in a new container, which a busy machine makes last half a minute and more.
     */
    private static void timesOut(WorkflowRun b) throws Exception {
        int stopped = 0;
        for (StepExecution e : b.getExecution().getCurrentExecutions(true).get(30, TimeUnit.SECONDS)) {
            if (e.getClass().getSimpleName().equals("CopilotAutopilotStepExecution")) {
                e.stop(new FlowInterruptedException(Result.ABORTED, true, new TimeoutStepExecution.ExceededTimeout()));
                stopped++;
            }
        }
        assertEquals(1, stopped, "the build's copilotAutopilot step, running");
    }

    static String awaitProcessInAContainer(String command, WorkflowRun b) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(300).toNanos();
        while (System.nanoTime() < deadline) {
            for (String id : run("docker", "ps", "-q", "--no-trunc").output.strip().split("\\s+")) {
                if (!id.isEmpty() && run("docker", "top", id, "-eo", "pid,args").output.contains(command)) {
                    return id;
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no container ran '" + command + "' within 300 s; the build's log:\n" + JenkinsRule.getLog(b));
    }

    static String hostProcesses(String command) throws Exception {
        return run("pgrep", "-af", "^" + command).output.strip();
    }

    record Run(int code, String output) {
    }

    static Run run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not end within 60 s");
        }
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
