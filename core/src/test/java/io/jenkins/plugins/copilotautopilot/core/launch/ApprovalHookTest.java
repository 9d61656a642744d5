package io.jenkins.plugins.copilotautopilot.core.launch;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.approval.ApprovalRules;
import io.jenkins.plugins.copilotautopilot.core.process.ControlFolderReader;
import io.jenkins.plugins.copilotautopilot.core.testing.TestFolders;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The approval hook ({@code approve.sh}) on its own, as the CLI runs it: {@code /bin/sh}, the call's JSON on standard
 * input, its answer on standard output. What it does when nobody follows the session: it never lets a call run
 * undecided.
 */
class ApprovalHookTest {
    private static final String GIT_PUSH = "{\"sessionId\":\"s\",\"timestamp\":1,\"cwd\":\"/w\",\"toolName\":\"bash\","
            + "\"toolArgs\":{\"command\":\"git push origin main\",\"description\":\"Push\"}}";
    private static final String LS = "{\"sessionId\":\"s\",\"timestamp\":1,\"cwd\":\"/w\",\"toolName\":\"bash\","
            + "\"toolArgs\":{\"command\":\"ls -l\",\"description\":\"List\"}}";

    private Path control() throws Exception {
        Path control = Files.createTempDirectory(TestFolders.root(), "hook-");
        Files.writeString(control.resolve(ControlFolder.APPROVAL_HOOK), LaunchScript.approvalHook());
        Files.writeString(control.resolve(ControlFolder.APPROVAL_RULES),
                LaunchFiles.rulesFile(ApprovalRules.of(List.of("shell(git push)"))));
        return control;
    }

    private static Process hook(Path control, String input, int waitSeconds) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", control.resolve(ControlFolder.APPROVAL_HOOK).toString());
        pb.environment().put("COPILOT_AUTOPILOT_CONTROL", control.toString());
        pb.environment().put("COPILOT_AUTOPILOT_APPROVAL_WAIT", String.valueOf(waitSeconds));
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        p.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        return p;
    }

    private static String answer(Process p) throws Exception {
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        return out.strip();
    }

    @Test
    void aCallNoRuleMatchesGetsNoAnswerAndNoRequest() throws Exception {
        Path control = control();
        assertThat(answer(hook(control, LS, 300))).isEmpty();
        assertThat(control.resolve(ControlFolder.APPROVALS).toFile().list()).isNull();
    }

    @Test
    void aMatchingCallWaitsForTheDecisionAndAnswersWithIt() throws Exception {
        Path control = control();
        Process p = hook(control, GIT_PUSH, 300);
        List<io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate.Request> open = waitForRequest(control, p);
        assertThat(open).singleElement().satisfies(r -> assertThat(r.text()).isEqualTo("0\n" + GIT_PUSH));
        assertThat(p.isAlive()).isTrue();

        LaunchFiles.writeDecision(control, open.get(0).id(), "{\"permissionDecision\":\"allow\"}");

        assertThat(answer(p)).isEqualTo("{\"permissionDecision\":\"allow\"}");
        assertThat(control.resolve(ControlFolder.APPROVALS).resolve(open.get(0).id() + ControlFolder.APPROVAL_DONE_SUFFIX)).exists();
        assertThat(ControlFolderReader.openApprovals(control)).isEmpty();
    }

    @Test
    void withNobodyToDecideItDeniesAtItsOwnDeadline() throws Exception {
        Path control = control();
        Process p = hook(control, GIT_PUSH, 1);
        assertThat(answer(p)).startsWith("{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"nobody approved it in time");
        assertThat(ControlFolderReader.openApprovals(control)).isEmpty();
    }

    @Test
    void aStoppedSessionDeniesWhatWaits() throws Exception {
        Path control = control();
        Process p = hook(control, GIT_PUSH, 300);
        waitForRequest(control, p);
        Files.writeString(control.resolve(ControlFolder.STOP), "");
        assertThat(answer(p)).contains("\"permissionDecision\":\"deny\"").contains("the session is being stopped");
    }

    /** A session whose folder is deleted (it ended; the CLI that asked was killed without its hooks) leaves no hook waiting. */
    @Test
    void aSessionWhoseFolderIsGoneLeavesNoHookWaiting() throws Exception {
        Path control = control();
        Process p = hook(control, GIT_PUSH, 300);
        waitForRequest(control, p);
        io.jenkins.plugins.copilotautopilot.core.files.FileTrees.delete(control);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("the hook ended").isTrue();
        assertThat(answer(p)).contains("\"permissionDecision\":\"deny\"").contains("the session has ended");
    }

    /** The hook's request, once it is there (the hook writes it at once). */
    private static List<io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate.Request> waitForRequest(Path control, Process p)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            List<io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate.Request> open = ControlFolderReader.openApprovals(control);
            if (open != null && !open.isEmpty()) {
                return open;
            }
            assertThat(p.isAlive()).as("the hook waits").isTrue();
            p.waitFor(50, TimeUnit.MILLISECONDS);
        }
        throw new AssertionError("no request in " + control + File.separator + ControlFolder.APPROVALS);
    }
}
