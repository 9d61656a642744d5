package io.jenkins.plugins.copilotautopilot.agent;

import static io.jenkins.plugins.copilotautopilot.testing.Waits.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.jvnet.hudson.test.junit.jupiter.JenkinsSessionExtension;

/**
 * A Freestyle build ends with the controller; its session's CLI does not (durable-task launched it to outlive its
 * JVM). A controller that died while such a session ran (a {@code kill -9}: the build could not stop it) deletes its
 * folders once it is back, which stops the CLI through its watchdog; a session whose build ended it is left alone.
 * (The soak found a lost Freestyle build's session run on to its end and leave its folder, its CLI's home with it.)
 */
class SessionsOfBuildsARestartEndsTest {
    @RegisterExtension
    private final JenkinsSessionExtension sessions = new JenkinsSessionExtension();

    @TempDir
    Path tmp;

    @Test
    void theFoldersOfASessionWhoseBuildDiedWithTheControllerAreDeletedOnceItIsBack() throws Throwable {
        Path lost = session("lost");
        Path ended = session("ended");
        long before = FolderDeletions.RETRY_SECONDS;
        try {
            sessions.then(j -> {
                FolderDeletions.RETRY_SECONDS = 1;
                FolderDeletions.whileItsBuildRuns("", lost.toString());
                FolderDeletions.whileItsBuildRuns("", ended.toString());
                FolderDeletions.buildEnded("", ended.toString());
                // the controller dies here, as far as these sessions know: nothing ends the first
            });
            sessions.then(j -> {
                waitFor(() -> !Files.exists(lost) && !Files.exists(Path.of(lost + "@tmp")), Duration.ofSeconds(60));
                assertTrue(Files.isDirectory(ended), "a session its build ended is not touched");
                assertTrue(Files.isDirectory(Path.of(ended + "@tmp", "durable-1", "copilot-home")));
                assertEquals(List.of(), Files.readAllLines(j.jenkins.getRootDir().toPath().resolve(FolderDeletions.RUNNING_FILE)),
                        "nothing is noted as running any more");
            });
        } finally {
            FolderDeletions.RETRY_SECONDS = before;
        }
    }

    /** A session's launch folder and, beside it, durable-task's control folder with the CLI's home. */
    private Path session(String name) throws Exception {
        Path launch = Files.createDirectories(tmp.resolve("ws").resolve("copilot-autopilot-" + name));
        Files.writeString(launch.resolve("launch.sh"), "#!/bin/sh\n");
        Path home = Files.createDirectories(Path.of(launch + "@tmp", "durable-1", "copilot-home"));
        Files.writeString(home.resolve("config.json"), "{}");
        return launch;
    }
}
