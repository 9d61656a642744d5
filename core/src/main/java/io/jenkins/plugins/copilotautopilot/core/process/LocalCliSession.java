package io.jenkins.plugins.copilotautopilot.core.process;

import io.jenkins.plugins.copilotautopilot.core.files.FileTrees;
import io.jenkins.plugins.copilotautopilot.core.launch.ControlFolder;
import io.jenkins.plugins.copilotautopilot.core.launch.LaunchFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;

/** A session started by {@link LocalCliLauncher}: its control folder and its launch script's process. */
public final class LocalCliSession implements CliSession {
    private static final byte[] NONE = new byte[0];
    /** How long the launch script may take, once the CLI is gone, to note how it ended and what it changed. */
    private static final Duration SCRIPT_END = Duration.ofSeconds(30);

    private final Path folder;
    private final Process script;
    private final String runId;
    private final Duration killGrace;

    LocalCliSession(Path folder, Process script, String runId, Duration killGrace) {
        this.folder = folder;
        this.script = script;
        this.runId = runId;
        this.killGrace = killGrace;
    }

    @Override
    public SessionPoll poll(long outputOffset, long stderrOffset, long usageOffset, int maxBytes) throws IOException {
        SessionPoll poll = poll(outputOffset, stderrOffset, maxBytes);
        ControlFolderReader.Usage usage = ControlFolderReader.usage(folder, usageOffset, maxBytes);
        return new SessionPoll(poll.output(), poll.stderr(), poll.exitCode(), poll.ended(), poll.launchError(),
                usage.lines(), usage.consumed(), poll.ended() ? ControlFolderReader.changes(folder) : null,
                ControlFolderReader.openApprovals(folder));
    }

    @Override
    public SessionPoll poll(long outputOffset, long stderrOffset, int maxBytes) throws IOException {
        // Read the exit code first: once it is there, the output files are complete.
        Integer exitCode = readExitCode(folder);
        boolean ended = exitCode != null || !script.isAlive();
        if (ended && exitCode == null) {
            exitCode = readExitCode(folder); // written just before the script ended
            if (exitCode == null) {
                exitCode = script.exitValue();
            }
        }
        return new SessionPoll(read(folder.resolve(ControlFolder.OUTPUT), outputOffset, maxBytes),
                read(folder.resolve(ControlFolder.STDERR), stderrOffset, maxBytes), exitCode, ended,
                ended ? readLaunchError(folder) : null);
    }

    @Override
    public void pause(long millis) throws InterruptedException {
        script.waitFor(millis, java.util.concurrent.TimeUnit.MILLISECONDS); // the launch script ends right after the CLI
    }

    /** Why the launch script could not start the CLI, or null. */
    public static String readLaunchError(Path folder) throws IOException {
        if (folder.resolve(ControlFolder.LAUNCH_ERROR).toFile().length() == 0) {
            return null; // none, or empty
        }
        try {
            String text = Files.readString(folder.resolve(ControlFolder.LAUNCH_ERROR), StandardCharsets.UTF_8).strip();
            return text.isEmpty() ? null : text;
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /**
     * Up to {@code max} bytes of {@code file} from {@code offset}; none when it does not exist (yet). A look that
     * finds nothing new costs one {@code stat}: the file is opened only when it has grown.
     */
    public static byte[] read(Path file, long offset, int max) throws IOException {
        long available = file.toFile().length() - offset; // what was there a moment ago: the rest comes next time
        if (available <= 0) {
            return NONE; // not grown, or not there (yet)
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(available, max));
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, offset + buffer.position()) < 0) {
                    break;
                }
            }
            return buffer.position() == buffer.capacity() ? buffer.array() : java.util.Arrays.copyOf(buffer.array(), buffer.position());
        } catch (NoSuchFileException e) {
            return NONE;
        }
    }

    /** The exit code the launch script recorded, or null while the CLI runs. */
    public static Integer readExitCode(Path folder) throws IOException {
        if (folder.resolve(ControlFolder.EXIT_CODE).toFile().length() == 0) {
            return null; // not written yet (a stat, no exception: this is asked at every look)
        }
        String text;
        try {
            text = Files.readString(folder.resolve(ControlFolder.EXIT_CODE), StandardCharsets.UTF_8).strip();
        } catch (NoSuchFileException e) {
            return null;
        }
        try {
            return text.isEmpty() ? null : Integer.valueOf(text);
        } catch (NumberFormatException e) {
            throw new IOException("the exit code file " + folder.resolve(ControlFolder.EXIT_CODE) + " holds '" + text + "'", e);
        }
    }

    @Override
    public void answer(int step, String answer, String prompt) throws IOException {
        LaunchFiles.writeAnswer(folder, step, answer, prompt);
    }

    @Override
    public void decide(String id, String hookOutput) throws IOException {
        LaunchFiles.writeDecision(folder, id, hookOutput);
    }

    @Override
    public void stop() {
        // The stop file first: the launch script's watchdog stops whatever runs (the CLI, the acceptance check, a wait),
        // and the script neither checks nor resumes after it. Then the CLI and everything it started (its tree, and
        // every process carrying the run's marker); the script then records how the CLI ended and what it changed,
        // and ends by itself.
        requestStop(folder);
        ProcessTreeKiller.kill(cliProcess(), runId, killGrace, true);
        boolean interrupted = Thread.interrupted(); // a stop on abort must still wait for the script
        try {
            script.waitFor(killGrace.toMillis() + SCRIPT_END.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            interrupted = true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        ProcessTreeKiller.kill(script.toHandle(), runId, killGrace, true); // a script that would not end
    }

    /** Writes the control folder's stop file; a folder that is gone needs no stop. */
    public static void requestStop(Path folder) {
        try {
            Files.write(folder.resolve(ControlFolder.STOP), new byte[0]);
        } catch (IOException e) {
            // the folder is gone, or not writable: the kills below are all there is
        }
    }

    /** The CLI's process (from the pid the launch script noted), or null before it started or after it ended. */
    private ProcessHandle cliProcess() {
        try {
            String pid = Files.readString(folder.resolve(ControlFolder.CLI_PID), StandardCharsets.UTF_8).strip();
            return ProcessHandle.of(Long.parseLong(pid)).filter(p -> p.parent().map(q -> q.pid() == script.pid()).orElse(false))
                    .orElse(null);
        } catch (IOException | NumberFormatException e) {
            return null;
        }
    }

    @Override
    public void cleanup() throws IOException {
        FileTrees.delete(folder);
    }

    /** The control folder. */
    public Path folder() {
        return folder;
    }

    /** The launch script's process id. */
    public long pid() {
        return script.pid();
    }
}
