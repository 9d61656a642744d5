package io.jenkins.plugins.copilotautopilot.core.parts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.changes.ChangedFile;
import io.jenkins.plugins.copilotautopilot.core.changes.WorkTreeChanges;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import io.jenkins.plugins.copilotautopilot.core.render.LogLines;
import io.jenkins.plugins.copilotautopilot.core.result.Changes;
import io.jenkins.plugins.copilotautopilot.core.result.Verification;
import io.jenkins.plugins.copilotautopilot.core.session.ResultInfo;
import io.jenkins.plugins.copilotautopilot.core.session.SessionTracker;
import io.jenkins.plugins.copilotautopilot.core.testing.Commands;
import io.jenkins.plugins.copilotautopilot.core.testing.ListLogSink;
import io.jenkins.plugins.copilotautopilot.core.testing.TaskSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each part's own state, lines and piece of the result, from what the session told it; and which parts a plan has. */
class PartsTest {
    private static final String SECRET = "s3cret-value";
    private final ListLogSink sink = new ListLogSink(false);
    private final List<String> journal = new ArrayList<>();
    private final PartContext context = new PartContext(new LogLines(sink, SecretMasker.of(List.of(SECRET)), true),
            SecretMasker.of(List.of(SECRET)), new SessionTracker(), (type, data) -> journal.add(type + " " + data), w -> { });

    @Test
    void aPlanHasOnlyThePartsItAsksFor() {
        SessionParts plain = SessionParts.of(Commands.of(TaskSpec.of("x").githubToken("t0ken-value")).plan(), context);
        assertThat(plain.verify()).isNull();
        assertThat(plain.answer()).isNull();
        assertThat(plain.approvals()).isNull();
        assertThat(plain.budgets()).isNotNull();
        assertThat(plain.changes()).isNotNull();

        SessionParts all = SessionParts.of(Commands.of(TaskSpec.of("x").githubToken("t0ken-value").set(SessionSettings.VERIFY, "make test")
                .set(SessionSettings.REVIEW_FINDINGS, true).add(SessionSettings.APPROVE_TOOLS, "shell(git push)")).plan(), context);
        assertThat(all.verify().check().command()).isEqualTo("make test");
        assertThat(all.answer()).isNotNull();
        assertThat(all.approvals().gate()).isNotNull();
    }

    @Test
    void theAcceptanceCheckCountsItsRoundsSaysEachAndJudgesOnlyAnEndThatWasChecked() {
        VerifyPart verify = SessionParts.of(Commands.of(TaskSpec.of("x").githubToken("t0ken-value").set(SessionSettings.VERIFY, "make test")
                .set(SessionSettings.MAX_VERIFY_ROUNDS, 2)).plan(), context).verify();
        verify.onVerifyStarted(1, null);
        verify.onVerifyOutput("1 failed");
        verify.onVerifyFinished(1, 1, null);
        verify.onVerifyStarted(2, null);
        verify.onVerifyFinished(2, SessionTracker.STOPPED_VERIFY, null);

        assertThat(sink.lines()).containsExactly(
                "[copilot] Verify, round 1 of 2: running the acceptance check",
                "[copilot] verify | 1 failed",
                "[copilot] Verify, round 1: FAILED with exit code 1; the agent is asked to fix it",
                "[copilot] Verify, round 2 of 2: running the acceptance check",
                "[copilot] Verify, round 2: stopped with the session");
        assertThat(verify.result(Outcome.NOT_VERIFIED)).isEqualTo(new Verification(false, 2, null));
        assertThat(verify.result(Outcome.ABORTED)).isEqualTo(new Verification(null, 2, null));
    }

    @Test
    void changesComeFromTheLastSnapshotMaskedAndElseFromTheClisOwnCount() {
        ChangesPart changes = new ChangesPart(context);
        ResultInfo info = new ResultInfo("abc", 0, 1.0, 10L, 20L, 7, 2, 3, List.of());
        assertThat(changes.result(info, context.masker())).isEqualTo(new Changes(7, 2, 3, List.of(), null, false));

        WorkTreeChanges tree = new WorkTreeChanges(List.of(new ChangedFile(SECRET + ".txt", "added", 4L, 0L)), 0,
                "+" + SECRET + "\n", false);
        changes.read(new SessionPoll(new byte[0], new byte[0], null, false, null, new byte[0], 0, tree));
        changes.read(new SessionPoll(new byte[0], new byte[0], null, false)); // a read without a snapshot keeps the last
        Changes result = changes.result(info, context.masker());
        assertThat(result.linesAdded()).isEqualTo(4);
        assertThat(result.files()).extracting(ChangedFile::path).containsExactly("****.txt");
        assertThat(result.patch()).doesNotContain(SECRET);

        changes.ended(null);
        assertThat(journal).singleElement().asString().startsWith("autopilot.changes ").doesNotContain("linesAdded\":0");
    }
}
