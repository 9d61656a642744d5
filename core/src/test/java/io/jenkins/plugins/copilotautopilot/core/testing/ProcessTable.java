package io.jenkins.plugins.copilotautopilot.core.testing;

import io.jenkins.plugins.copilotautopilot.core.process.ProcessTreeKiller;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/** Looks at the real process table (/proc), not at process handles, to prove nothing was left running. */
public final class ProcessTable {
    private ProcessTable() {
    }

    /** Live processes (other than zombies) that carry the run marker, described for an assertion message. */
    public static List<String> survivorsOf(String runId) {
        return ProcessTreeKiller.marked(runId).stream()
                .filter(p -> !isZombie(p.pid()))
                .map(p -> p.pid() + " " + p.info().commandLine().orElse("?"))
                .collect(Collectors.toList());
    }

    /** The command line of a running process as the kernel holds it, NULs between arguments. */
    public static String cmdline(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", String.valueOf(pid), "cmdline")), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    static boolean isZombie(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
            int close = stat.lastIndexOf(')');
            return close > 0 && stat.length() > close + 2 && stat.charAt(close + 2) == 'Z';
        } catch (IOException e) {
            return true; // gone
        }
    }
}
