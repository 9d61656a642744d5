package io.jenkins.plugins.copilotautopilot.core.kept;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import io.jenkins.plugins.copilotautopilot.core.testing.ArchiveWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a kept session's state loses before it crosses to another run: the run's path, secrets, what would unpack elsewhere. */
class KeptSessionStateTest {
    private static final String ID = "5f334021-bd95-4449-ab47-02394227b1d1";

    @Test
    void theEarlierWorkingDirectoryAndEverySpellingOfASecretAreLeftOut() throws Exception {
        String secret = "s3cr3t-value-1234";
        byte[] packed = new ArchiveWriter()
                .directory(ID)
                .file(ID + "/workspace.yaml", 0644, "id: " + ID + "\ncwd: /var/lib/jenkins/workspace/pr-29\nname: one\n")
                .file(ID + "/events.jsonl", 0644, "{\"type\":\"tool.execution_complete\",\"data\":{\"result\":{\"content\":\""
                        + secret + " " + java.util.Base64.getEncoder().encodeToString(secret.getBytes()) + "\"}}}\n")
                .tarGz();

        String kept = ArchiveWriter.textOfTarGz(KeptSessionState.sanitize(packed, SecretMasker.of(List.of(secret))));

        assertThat(kept).contains("== " + ID + "/workspace.yaml\nid: " + ID + "\nname: one\n")
                .doesNotContain("cwd:").doesNotContain("/var/lib/jenkins")
                .doesNotContain(secret).doesNotContain(java.util.Base64.getEncoder().encodeToString(secret.getBytes()))
                .contains("\"content\":\"**** ****"); // the base64 padding depends on what follows: not the secret's
    }

    @Test
    void entriesThatWouldLandOutsideTheSessionsFolderAreRefused() throws Exception {
        for (ArchiveWriter hostile : List.of(
                new ArchiveWriter().directory(ID).file(ID + "/../../.bashrc", 0644, "evil"),
                new ArchiveWriter().file("/etc/cron.d/evil", 0644, "evil"),
                new ArchiveWriter().directory(ID).symlink(ID + "/events.jsonl"),
                new ArchiveWriter().directory(ID).directory("6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d"),
                new ArchiveWriter().directory("not-a-session").file("not-a-session/events.jsonl", 0644, "{}"),
                new ArchiveWriter().file("..", 0644, "x"))) {
            assertThatThrownBy(() -> KeptSessionState.sanitize(hostile.tarGz(), SecretMasker.none()))
                    .isInstanceOf(KeptSessionState.UnusableStateException.class)
                    .hasMessageStartingWith("the kept session");
        }
        assertThatThrownBy(() -> KeptSessionState.sanitize("not an archive".getBytes(), SecretMasker.none()))
                .isInstanceOf(KeptSessionState.UnusableStateException.class).hasMessageContaining("no tar.gz");
        assertThatThrownBy(() -> KeptSessionState.sanitize(new ArchiveWriter().tarGz(), SecretMasker.none()))
                .isInstanceOf(KeptSessionState.UnusableStateException.class).hasMessage("the kept session holds no session");
    }
}
