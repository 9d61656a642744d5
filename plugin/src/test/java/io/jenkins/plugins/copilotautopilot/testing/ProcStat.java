package io.jenkins.plugins.copilotautopilot.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time and load from Linux's {@code /proc}. */
public final class ProcStat {
    private static final long TICKS_PER_SECOND = ticksPerSecond();

    private ProcStat() {
    }

    /** User plus system CPU time of a process ({@code "self"} or a pid), in ms, as {@code /proc/PID/stat} counts it. */
    public static long cpuMillis(String pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", pid, "stat"), StandardCharsets.US_ASCII);
        // the command's name, in parentheses, may hold spaces: the fields are counted from after its end
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime (fields 14 and 15)
        return ticks * 1000 / TICKS_PER_SECOND;
    }

    /** The 1-minute load average. */
    public static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** The whole machine's CPU time so far, in ticks: {busy, all}. */
    public static long[] machineTicks() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/stat"))) {
            if (line.startsWith("cpu ")) {
                String[] f = line.substring(4).trim().split("\\s+");
                long all = 0;
                for (int i = 0; i < Math.min(8, f.length); i++) { // user nice system idle iowait irq softirq steal
                    all += Long.parseLong(f[i]);
                }
                long idle = Long.parseLong(f[3]) + Long.parseLong(f[4]);
                return new long[] {all - idle, all};
            }
        }
        throw new IOException("no cpu line in /proc/stat");
    }

    private static long ticksPerSecond() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
            p.waitFor();
            return Long.parseLong(out);
        } catch (IOException | NumberFormatException e) {
            return 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 100;
        }
    }
}
