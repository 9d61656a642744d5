package io.jenkins.plugins.copilotautopilot.benchmark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jenkins.plugins.copilotautopilot.core.journal.JournalFiles;
import io.jenkins.plugins.copilotautopilot.pages.SessionFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;

/**
 * How long after the CLI wrote a turn's start or a tool's start (the event's own timestamp, kept in the session's
 * journal) its line was in the build's log file, which is what the console shows. The log files are followed by
 * inotify ({@link WatchService}), read when they change, so that following them costs the controller next to nothing.
 * A turn line is matched to the turn start of the same rank, a tool line ({@code > NAME}) to the tool start of the same
 * rank (task_complete has no line).
 */
final class ConsoleLatency implements AutoCloseable {
    private static final String TURN = "[copilot] Turn ";
    private static final String TOOL = "[copilot]   > ";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final WatchService watch;
    private final Map<WatchKey, Tail> tails = new ConcurrentHashMap<>();
    private final Map<String, WatchKey> keys = new ConcurrentHashMap<>();
    private final List<Long> delays = Collections.synchronizedList(new ArrayList<>());
    private final List<String> mismatches = Collections.synchronizedList(new ArrayList<>());
    private final Thread thread;

    ConsoleLatency() throws IOException {
        watch = FileSystems.getDefault().newWatchService();
        thread = new Thread(this::run, "bench-console-latency");
        thread.setDaemon(true);
        thread.start();
    }

    /** Follows the log of a build that has just started. */
    void follow(WorkflowRun run) throws IOException {
        // the file workflow-job's log storage writes (getLogFile is discouraged for Pipeline builds, and warns)
        Tail tail = new Tail(run.getRootDir().toPath().resolve("log"));
        WatchKey key = run.getRootDir().toPath().register(watch, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY);
        tails.put(key, tail);
        tail.read(); // what it wrote before the key was there
        keys.put(run.getExternalizableId(), key);
    }

    /** Once the build has ended: its lines matched to the journal's events, their delays kept. */
    void collect(WorkflowRun run) throws IOException {
        WatchKey key = keys.remove(run.getExternalizableId());
        if (key == null) {
            return;
        }
        key.cancel();
        Tail tail = tails.remove(key);
        tail.read();
        List<Long> turnLines = new ArrayList<>();
        List<Long> toolLines = new ArrayList<>();
        synchronized (tail) {
            for (Arrival a : tail.arrivals) {
                if (a.line.startsWith(TURN)) {
                    turnLines.add(a.millis);
                } else if (a.line.startsWith(TOOL)) {
                    toolLines.add(a.millis);
                }
            }
        }
        List<Long> turnStarts = new ArrayList<>();
        List<Long> toolStarts = new ArrayList<>();
        try (Stream<Path> journals = Files.list(run.getRootDir().toPath().resolve(SessionFiles.FOLDER))) {
            for (Path journal : journals.filter(p -> p.getFileName().toString().matches("[^.]+\\.jsonl(\\.gz)?")).toList()) {
                try (BufferedReader lines = new BufferedReader(new InputStreamReader(JournalFiles.open(journal), StandardCharsets.UTF_8))) {
                    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                        JsonNode event = JSON.readTree(line);
                        String type = event.path("type").asText();
                        if (type.equals("assistant.turn_start")) {
                            turnStarts.add(Instant.parse(event.path("timestamp").asText()).toEpochMilli());
                        } else if (type.equals("tool.execution_start") && !event.path("data").path("toolName").asText().equals("task_complete")) {
                            toolStarts.add(Instant.parse(event.path("timestamp").asText()).toEpochMilli());
                        }
                    }
                }
            }
        }
        match(run, "turn", turnStarts, turnLines);
        match(run, "tool", toolStarts, toolLines);
    }

    private void match(WorkflowRun run, String what, List<Long> events, List<Long> lines) {
        if (events.size() != lines.size()) {
            mismatches.add(run.getFullDisplayName() + ": " + events.size() + " " + what + " starts, " + lines.size() + " lines");
            return;
        }
        for (int i = 0; i < events.size(); i++) {
            delays.add(lines.get(i) - events.get(i));
        }
    }

    /** The delays so far, in ms, sorted; and taken away. */
    List<Long> take() {
        synchronized (delays) {
            List<Long> taken = new ArrayList<>(delays);
            delays.clear();
            Collections.sort(taken);
            return taken;
        }
    }

    /** The builds whose lines and events did not pair up so far, and taken away. */
    List<String> takeMismatches() {
        synchronized (mismatches) {
            List<String> taken = List.copyOf(mismatches);
            mismatches.clear();
            return taken;
        }
    }

    private void run() {
        try {
            while (true) {
                WatchKey key = watch.take();
                key.pollEvents(); // which file changed matters not: the log is read from where it was
                Tail tail = tails.get(key);
                if (tail != null) {
                    tail.read();
                }
                key.reset();
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            // closed
        } catch (IOException e) {
            mismatches.add("could not follow a log: " + e);
        }
    }

    @Override
    public void close() throws IOException {
        watch.close();
        thread.interrupt();
    }

    /** The part of a log file read so far, and when each whole line was seen. */
    private static final class Tail {
        private final Path file;
        private long position;
        private final StringBuilder partial = new StringBuilder();
        private final List<Arrival> arrivals = new ArrayList<>();

        Tail(Path file) {
            this.file = file;
        }

        synchronized void read() throws IOException {
            long now = System.currentTimeMillis();
            if (!Files.exists(file)) {
                return;
            }
            try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
                long length = in.length();
                if (length <= position) {
                    return;
                }
                byte[] bytes = new byte[(int) (length - position)];
                in.seek(position);
                in.readFully(bytes);
                position = length;
                partial.append(new String(bytes, StandardCharsets.UTF_8));
            }
            for (int nl = partial.indexOf("\n"); nl >= 0; nl = partial.indexOf("\n")) {
                // Pipeline's log marks a line with its step's node (an escape sequence, ESC [8m … ESC [0m) before the text
                String line = partial.substring(0, nl).replaceAll("\u001B\\[8m.*?\u001B\\[0m", "");
                arrivals.add(new Arrival(line, now));
                partial.delete(0, nl + 1);
            }
        }
    }

    private record Arrival(String line, long millis) {
    }
}
