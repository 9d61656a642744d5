package io.jenkins.plugins.copilotautopilot.benchmark;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The benchmark's measures that run in a JVM of their own (a heap of their own size, a classpath of another checkout). */
final class ChildJvm {
    private ChildJvm() {
    }

    /**
     * Runs {@code mainClass} in a JVM with {@code jvmOptions} and this classpath, its temporary files in {@code work};
     * its last line of output.
     */
    static String lastLine(Path work, List<String> jvmOptions, String mainClass, String... args) throws Exception {
        return lastLineOn(System.getProperty("java.class.path"), work, jvmOptions, mainClass, args);
    }

    /** Like {@link #lastLine(Path, List, String, String...)}, with the classes of {@code classpath}. */
    static String lastLineOn(String classpath, Path work, List<String> jvmOptions, String mainClass, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Djava.io.tmpdir=" + work);
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classpath, mainClass));
        command.addAll(List.of(args));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!child.waitFor(30, TimeUnit.MINUTES) || child.exitValue() != 0) {
                throw new IllegalStateException(mainClass + " exited " + child.exitValue() + ": " + out);
            }
            return out.substring(out.lastIndexOf('\n') + 1);
        } finally {
            ended(child);
        }
    }

    /** Runs the pipeline over a stream in a JVM with a 64 MB heap, its files in {@code work}; its one line of output. */
    static String pipeline(Path stream, Path work) throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + work, "-Xmx64m",
                "-cp", System.getProperty("java.class.path"), PipelineMain.class.getName(), stream.toString())
                .redirectErrorStream(true).start();
        try {
            String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            boolean ok = child.waitFor(10, TimeUnit.MINUTES) && child.exitValue() == 0;
            return ok ? out : "exit " + child.exitValue() + ": " + out;
        } finally {
            ended(child);
        }
    }

    /** A child JVM that is still running when the benchmark goes on (a failure, a time-out) writes nothing more. */
    private static void ended(Process child) throws InterruptedException {
        if (child.isAlive()) {
            child.destroyForcibly();
            child.waitFor();
        }
    }

    /** The number {@code name=} gives in a child's line, or -1. */
    static long field(String line, String name) {
        for (String part : line.split(" ")) {
            if (part.startsWith(name + "=")) {
                return Long.parseLong(part.substring(name.length() + 1));
            }
        }
        return -1;
    }
}
