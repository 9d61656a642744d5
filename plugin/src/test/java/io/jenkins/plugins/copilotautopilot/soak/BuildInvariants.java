package io.jenkins.plugins.copilotautopilot.soak;

import io.jenkins.plugins.copilotautopilot.soak.ControllerSide.BuildFacts;
import io.jenkins.plugins.copilotautopilot.soak.ControllerSide.SessionFacts;

import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The invariants of one ended build: its result is what its kind and the faults that touched it explain; each of its
 * sessions shows every turn, tool call and closing line exactly once, as many as its record counts; a kept session
 * continued the conversation of the build its log names.
 */
final class BuildInvariants {
    private static final Pattern TURN = Pattern.compile("^\\[copilot\\] Turn (\\d+)$");
    /** A tool call's first line: {@code > tool: arguments}, task_complete's {@code Task complete: summary}, or its end when it was cut off. */
    private static final Pattern TOOL_CALL = Pattern.compile("^\\[copilot\\]   (> |Task complete|< task_complete )");
    /** What workflow-cps prints when it fails a build whose flow nodes it could not load. */
    private static final String FLOW_LOST = "Creating placeholder flownodes because failed loading originals.";
    private static final Pattern CLOSING = Pattern.compile("^\\[copilot\\] ("
            + Arrays.stream(Outcome.values()).map(Enum::name).collect(Collectors.joining("|")) + "): ");
    /** An event line of the CLI that the step did not take for one (it shows lines it cannot read as they are). */
    private static final Pattern RAW_EVENT = Pattern.compile("^\\[copilot\\] cli: \\{\"type\":");
    private static final Pattern CONTINUING = Pattern.compile("\\[copilot\\] Continuing session '" + SessionKind.KEPT_SESSION
            + "' from build #(\\d+) ");

    private BuildInvariants() {
    }

    /** The violations of {@code b}, a build of {@code kind}, given every fault injected so far. */
    static List<Violation> check(SessionKind kind, BuildFacts b, List<FaultEvent> faults) {
        List<Violation> found = new ArrayList<>();
        long end = b.startMillis() + b.durationMillis();
        List<FaultEvent> touching = faults.stream().filter(f -> f.during(b.startMillis(), end) && f.touches(b.ref(), b.agents())).toList();
        String before = touching.isEmpty() ? "none" : touching.get(touching.size() - 1).toString();
        Set<String> explained = new HashSet<>(Set.of(kind.expected));
        touching.forEach(f -> explained.addAll(f.kind().explains));
        if (kind.freestyle() && touching.stream().anyMatch(f -> f.kind().target == FaultKind.Target.AGENT || f.kind().target == FaultKind.Target.CONTROLLER)) {
            explained.add("FAILURE"); // a Freestyle build ends with its agent's connection (its last call, the process kill, fails)
        }
        if (kind == SessionKind.DOCKER && touching.stream().anyMatch(f -> f.kind().target == FaultKind.Target.AGENT
                || f.kind().target == FaultKind.Target.CONTROLLER)) {
            explained.add("FAILURE"); // docker-workflow starts and stops the container through the agent: its own calls fail
        }
        if (touching.stream().anyMatch(f -> f.kind().stopsALaunch) && (b.sessions().stream().anyMatch(s -> s.lines().stream()
                .noneMatch(l -> TURN.matcher(l).matches())) || b.sessions().size() < kind.sessions())) {
            // a session that never ran a turn, or a step never reached (its node step failed with the agent it was
            // given): the fault met its launch
            explained.add("FAILURE");
        }
        // (a program Jenkins could not load again ended with no length: its end is then when it was loaded, after the fault)
        long loadedBy = Math.max(end, b.startMillis() + 120_000);
        if (!kind.freestyle() && b.sessions().isEmpty() && faults.stream().anyMatch(f -> f.kind().target == FaultKind.Target.CONTROLLER
                && f.atMillis() <= loadedBy && f.endMillis() >= b.startMillis() - 60_000)) {
            // its Pipeline never reached the step: Jenkins fails a program a controller stopped (or killed) just as it
            // started, before it was saved, or as it came back from its queue
            explained.add("FAILURE");
        }
        // workflow-cps failing a build whose flow it could not load after a controller kill (its flow nodes not yet on
        // disk): Jenkins' loss, which leaves the build's records without their steps in the flow
        boolean flowLost = !kind.freestyle() && flowLost(b);
        if (flowLost) {
            explained.add("FAILURE");
        }
        if (!explained.contains(b.result())) {
            found.add(new Violation("result explained", b.ref().toString(), before, "ended " + b.result() + ", explained: " + explained
                    + "; last lines: " + tail(b.console(), 12)));
        }
        if (!b.recordsWithoutLines().isEmpty() && !flowLost) {
            found.add(new Violation("a session's lines in the console", b.ref().toString(), before,
                    "records without a step in the flow: " + b.recordsWithoutLines().stream().map(SessionFacts::invocationId).toList()));
        }
        // a full disk or a CLI killed as it wrote cuts lines: shown as they are, not taken for events
        boolean cutLines = touching.stream().anyMatch(f -> f.kind() == FaultKind.DISK_FULL || f.kind() == FaultKind.AGENT_KILL_GROUP);
        // a killed controller prints again what came after its last checkpoint (two or three seconds' worth): at least
        // once, then, rather than exactly once (docs/reliability.md)
        boolean killed = touching.stream().anyMatch(f -> f.kind() == FaultKind.CONTROLLER_KILL);
        for (SessionFacts s : b.sessions()) {
            found.addAll(session(b, s, before, cutLines, killed));
        }
        return found;
    }

    private static List<Violation> session(BuildFacts b, SessionFacts s, String before, boolean cutLines, boolean killed) {
        List<Violation> found = new ArrayList<>();
        String where = b.ref() + " (" + s.invocationId() + ")";
        Map<Integer, Integer> turns = new TreeMap<>();
        int toolCalls = 0;
        List<String> closings = new ArrayList<>();
        List<String> raw = new ArrayList<>();
        for (String line : s.lines()) {
            Matcher t = TURN.matcher(line);
            if (t.matches()) {
                turns.merge(Integer.parseInt(t.group(1)), 1, Integer::sum);
            }
            if (TOOL_CALL.matcher(line).find()) {
                toolCalls++;
            }
            if (CLOSING.matcher(line).find()) {
                closings.add(line);
            }
            if (RAW_EVENT.matcher(line).find()) {
                raw.add(line.length() > 200 ? line.substring(0, 200) + "…" : line);
            }
        }
        if (!raw.isEmpty() && !cutLines) {
            found.add(new Violation("every event read as one", where, before, raw.size() + " event lines shown raw: " + raw.get(0)));
        }
        List<Integer> twice = turns.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).toList();
        if (!twice.isEmpty() && !killed) {
            found.add(new Violation("every turn once", where, before, "turns shown more than once: " + twice));
        }
        if (!turns.isEmpty()) {
            int first = turns.keySet().iterator().next();
            int last = ((TreeMap<Integer, Integer>) turns).lastKey();
            if (last - first + 1 != turns.size()) {
                found.add(new Violation("every turn once", where, before, "turns missing between " + first + " and " + last + ": shown " + turns.keySet()));
            }
        }
        boolean started = s.outcome() != null;
        if (started && closings.size() != 1 || !started && closings.size() > 1) {
            found.add(new Violation("the closing line once", where, before, closings.size() + " closing lines: " + closings));
        }
        if (started && s.turns() != turns.size()) {
            found.add(new Violation("every turn once", where, before, "the record counts " + s.turns() + " turns, the console shows "
                    + turns.size() + ": " + turns.keySet()));
        }
        if (started && (killed ? s.toolCalls() > toolCalls : s.toolCalls() != toolCalls)) {
            found.add(new Violation("every tool call once", where, before, "the record counts " + s.toolCalls() + " tool calls, the console shows "
                    + toolCalls));
        }
        return found;
    }

    /**
     * A kept session's build: the code words its model saw end with those of the build its log says it continued (or,
     * when it started a new session, are its own only). A continued build whose session never completed (its model
     * calls refused by a 5xx or 429 storm) may have left no word of its own in the conversation, nor the builds before
     * it that did not either: then the words before this build's own are those of earlier builds only.
     *
     * @param earlier an earlier build of the same job by its number, as it ended (null when the harness did not see it)
     */
    static List<Violation> keptConversation(BuildFacts b, String before, java.util.function.IntFunction<BuildFacts> earlier) {
        List<Violation> found = new ArrayList<>();
        for (SessionFacts s : b.sessions()) {
            if (s.summary() == null || !s.summary().startsWith(SoakModel.KNOWN)) {
                continue; // no completed session: nothing was continued
            }
            List<String> words = Arrays.asList(s.summary().substring(SoakModel.KNOWN.length()).strip().split(" "));
            String own = "W" + b.ref().number();
            Integer from = null;
            for (String line : s.lines()) {
                Matcher c = CONTINUING.matcher(line);
                if (c.find()) {
                    from = Integer.valueOf(c.group(1));
                }
            }
            String evidence = "continued " + (from == null ? "nothing" : "#" + from) + ", the model saw " + words;
            boolean ownLast = !words.isEmpty() && own.equals(words.get(words.size() - 1));
            boolean right;
            if (from == null) {
                right = ownLast && words.size() == 1;
            } else if (completed(earlier.apply(from))) {
                right = ownLast && words.size() >= 2 && ("W" + from).equals(words.get(words.size() - 2));
            } else {
                // a build stopped or failed before its model answered still keeps its session (the log names it): its
                // own word is in that conversation when its prompt got there, and no later build's word is
                int continued = from;
                right = ownLast && words.subList(0, words.size() - 1).stream()
                        .allMatch(w -> w.matches("W\\d+") && Integer.parseInt(w.substring(1)) <= continued);
                evidence += " (#" + from + " did not complete)";
            }
            if (!right) {
                found.add(new Violation("a kept session continues the right conversation", b.ref().toString(), before, evidence));
            }
        }
        return found;
    }

    /** Whether workflow-cps failed the build because it could not load its flow after a controller kill. */
    static boolean flowLost(BuildFacts b) {
        return b.console().stream().anyMatch(l -> l.contains(FLOW_LOST));
    }

    /** Whether a build's session completed: its model saw the conversation and answered. */
    private static boolean completed(BuildFacts b) {
        return b == null || b.recorded().stream().anyMatch(s -> s.summary() != null && s.summary().startsWith(SoakModel.KNOWN));
    }

    static String tail(List<String> lines, int n) {
        return String.join(" | ", lines.subList(Math.max(0, lines.size() - n), lines.size()));
    }
}
