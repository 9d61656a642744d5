package io.jenkins.plugins.copilotautopilot.core.launch;

import static io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings.*;
import io.jenkins.plugins.copilotautopilot.core.testing.TaskSpec;
import io.jenkins.plugins.copilotautopilot.core.testing.Commands;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.changes.ChangedFile;
import io.jenkins.plugins.copilotautopilot.core.changes.WorkTreeChanges;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommandBuilder;
import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.LocalCliLauncher;
import io.jenkins.plugins.copilotautopilot.core.process.SessionPoll;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptCli;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What the agent changed in a git work tree, as the launch script records it: and nothing of the repository is touched. */
@Timeout(60)
class WorkTreeSnapshotTest {
    @TempDir
    Path dir;

    private static String git(Path repo, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("git", "-C", repo.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as("git %s: %s", List.of(args), out).isZero();
        return out;
    }

    private Path repository() throws Exception {
        Path repo = Files.createDirectories(dir.resolve("repo"));
        git(repo, "init", "-q");
        git(repo, "config", "user.email", "t@example.invalid");
        git(repo, "config", "user.name", "t");
        Files.writeString(repo.resolve("README.md"), "one\ntwo\nthree\n");
        Files.writeString(repo.resolve("old.txt"), "to be deleted\n");
        Files.writeString(repo.resolve("dirty.txt"), "committed\n");
        Files.writeString(repo.resolve(".gitignore"), "build/\n");
        git(repo, "add", "-A");
        git(repo, "commit", "-q", "-m", "start");
        Files.writeString(repo.resolve("dirty.txt"), "changed before the agent came\n"); // not the agent's change
        return repo;
    }

    private SessionPoll runAgent(Path repo, String agent) throws Exception {
        return runAgent(repo, agent, true);
    }

    private SessionPoll runAgent(Path repo, String agent, boolean recordChanges) throws Exception {
        Path cli = ScriptCli.write(dir.resolve("bin"), agent + "\necho '{\"type\":\"result\",\"exitCode\":0}'");
        CliCommand command = Commands.build(TaskSpec.of("change things").set(RECORD_CHANGES, recordChanges),
                new CliExecutable(cli.toString(), null), repo.toString(), dir.resolve("control").toString(), Map.of());
        CliSession session = new LocalCliLauncher().launch(command);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        SessionPoll poll;
        do {
            Thread.sleep(20);
            poll = session.poll(0, 0, 1 << 20);
        } while (!poll.ended() && System.nanoTime() < deadline);
        assertThat(poll.ended()).isTrue();
        return poll;
    }

    private WorkTreeChanges changes() throws Exception {
        Path control = dir.resolve("control");
        return WorkTreeChanges.parse(read(control.resolve(ControlFolder.CHANGES_STATUS)),
                read(control.resolve(ControlFolder.CHANGES_NUMSTAT)), read(control.resolve(ControlFolder.CHANGES_PATCH)));
    }

    private static byte[] read(Path file) throws Exception {
        return Files.exists(file) ? Files.readAllBytes(file) : null;
    }

    @Test
    void theAgentsChangesAreRecordedAndTheRepositoryIsNotTouched() throws Exception {
        Path repo = repository();
        String head = git(repo, "rev-parse", "HEAD");
        String refs = git(repo, "for-each-ref");
        byte[] index = Files.readAllBytes(repo.resolve(".git/index"));

        runAgent(repo, String.join("\n",
                "printf 'one\\n2\\nthree\\nfour\\n' > README.md",
                "rm old.txt",
                "mkdir -p src build && printf 'new\\nfile\\n' > src/new.txt && echo ignored > build/out.bin",
                "printf '\\000\\001' > blob.bin"));

        WorkTreeChanges changes = changes();
        assertThat(changes.files()).containsExactlyInAnyOrder(
                new ChangedFile("README.md", "modified", 2L, 1L),
                new ChangedFile("blob.bin", "added", null, null),
                new ChangedFile("old.txt", "deleted", 0L, 1L),
                new ChangedFile("src/new.txt", "added", 2L, 0L));
        assertThat(changes.linesAdded()).isEqualTo(4);
        assertThat(changes.patchByFile().get("README.md")).contains("-two\n+2\n").contains("+four\n");
        assertThat(changes.patch()).doesNotContain("changed before the agent came").doesNotContain("ignored");
        // the repository itself: same HEAD, refs and index; the changes are still just in the work tree
        assertThat(git(repo, "rev-parse", "HEAD")).isEqualTo(head);
        assertThat(git(repo, "for-each-ref")).isEqualTo(refs);
        assertThat(Files.readAllBytes(repo.resolve(".git/index"))).isEqualTo(index);
        assertThat(git(repo, "status", "--porcelain")).contains(" M README.md").contains("?? src/");
    }

    @Test
    void onlyTheWorkingDirectorysPartOfTheWorkTreeIsTheAgents() throws Exception {
        Path repo = repository();
        Path app = Files.createDirectories(repo.resolve("app"));
        Files.writeString(app.resolve("a.txt"), "a\n");
        git(repo, "add", "-A");
        git(repo, "commit", "-q", "-m", "app");

        runAgent(app, "echo b >> a.txt && echo new > b.txt && echo outside > ../README.md && echo other > ../other.txt");

        assertThat(changes().files()).containsExactlyInAnyOrder(
                new ChangedFile("app/a.txt", "modified", 1L, 0L), new ChangedFile("app/b.txt", "added", 1L, 0L));
    }

    @Test
    void aWorkingDirectoryInAnIgnoredFolderOfAnotherRepositoryRecordsNothing() throws Exception {
        Path repo = repository();
        Path workspace = Files.createDirectories(repo.resolve("build/workspace"));

        runAgent(workspace, "echo x > x.txt && echo outside > ../../README.md");

        assertThat(changes()).as("as outside git: no record").isNull();
    }

    @Test
    void aWorkingDirectoryOutsideGitHasNoChangesRecord() throws Exception {
        Path plain = Files.createDirectories(dir.resolve("plain"));
        runAgent(plain, "echo x > x.txt");
        assertThat(changes()).isNull();
    }

    @Test
    void aHugePatchIsCut() throws Exception {
        Path repo = repository();
        runAgent(repo, "i=0; while [ $i -lt 40000 ]; do echo \"line $i with some text to make it long enough\"; i=$((i+1)); done > big.txt");
        WorkTreeChanges changes = changes();
        assertThat(changes.patchCut()).isTrue();
        assertThat(changes.patch().length()).isLessThanOrEqualTo(WorkTreeChanges.MAX_PATCH_BYTES);
        assertThat(changes.files()).containsExactly(new ChangedFile("big.txt", "added", 40000L, 0L));
    }

    @Test
    void tooManyUntrackedFilesAreLeftOutAndSaidSoWhileTrackedChangesAreStillRecorded() throws Exception {
        Path repo = repository();
        Path many = Files.createDirectories(repo.resolve("generated"));
        for (int i = 0; i <= LaunchScript.MAX_UNTRACKED_FILES; i++) {
            Files.writeString(many.resolve("f" + i + ".txt"), "x" + i + "\n");
        }
        long objectsBefore = objects(repo);

        SessionPoll end = runAgent(repo, "printf 'one\\n2\\nthree\\n' > README.md\nrm generated/f0.txt\necho new > new.txt");

        String output = new String(end.output(), StandardCharsets.UTF_8);
        assertThat(output).contains("\"type\":\"" + ControlFolder.CHANGES_LEFT_OUT_EVENT + "\"")
                .contains("\"snapshot\":\"before\",\"files\":" + (LaunchScript.MAX_UNTRACKED_FILES + 1) + ",");
        WorkTreeChanges changes = changes();
        assertThat(changes.files()).containsExactly(new ChangedFile("README.md", "modified", 1L, 1L));
        assertThat(objects(repo) - objectsBefore).as("no untracked file was hashed into the repository").isLessThan(20);
    }

    @Test
    void largeUntrackedFilesAreLeftOutWithTheirSize() throws Exception {
        Path repo = repository();
        byte[] mb = new byte[1024 * 1024];
        new java.util.Random(1).nextBytes(mb);
        try (var out = Files.newOutputStream(repo.resolve("dump.bin"))) {
            for (int i = 0; i <= LaunchScript.MAX_UNTRACKED_KILOBYTES / 1024; i++) {
                out.write(mb);
            }
        }

        SessionPoll end = runAgent(repo, "echo new > new.txt");

        assertThat(new String(end.output(), StandardCharsets.UTF_8))
                .containsPattern("\"snapshot\":\"before\",\"files\":1,\"kilobytes\":10[0-9]{4},");
        assertThat(changes().files()).isEmpty(); // new.txt is a new untracked file too: left out with the rest
    }

    @Test
    void anUntrackedFileThereBeforeThatTheAgentDeletesIsRecordedAsDeleted() throws Exception {
        Path repo = repository();
        Files.writeString(repo.resolve("notes.txt"), "untracked before the agent\n");
        runAgent(repo, "rm notes.txt");
        assertThat(changes().files()).containsExactly(new ChangedFile("notes.txt", "deleted", 0L, 1L));
    }

    @Test
    void withRecordChangesOffNothingIsSnapshotted() throws Exception {
        Path repo = repository();
        long objectsBefore = objects(repo);
        runAgent(repo, "echo new > new.txt", false);
        assertThat(changes()).isNull();
        assertThat(objects(repo)).isEqualTo(objectsBefore);
    }

    /** Loose objects in the repository. */
    private static long objects(Path repo) throws Exception {
        try (var files = Files.walk(repo.resolve(".git/objects"))) {
            return files.filter(Files::isRegularFile).count();
        }
    }
}
