package io.jenkins.plugins.copilotautopilot.core.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * A {@code PATH} of one folder that links every program of this machine's usual folders but those left out: a
 * machine that lacks a program, for a test, on a machine that has it. The folder goes with the test JVM.
 */
public final class ProgramsPath {
    private static final String[] FOLDERS = {"/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"};

    private ProgramsPath() {
    }

    /** The folder, with every program but {@code left}. */
    public static Path without(String... left) throws IOException {
        java.util.Set<String> out = java.util.Set.of(left);
        Path bin = Files.createDirectories(Files.createTempDirectory(TestFolders.root(), "path-").resolve("bin"));
        for (String dir : FOLDERS) {
            if (!Files.isDirectory(Path.of(dir))) {
                continue;
            }
            try (Stream<Path> programs = Files.list(Path.of(dir))) {
                for (Path p : (Iterable<Path>) programs::iterator) {
                    String name = p.getFileName().toString();
                    Path link = bin.resolve(name);
                    if (!out.contains(name) && !Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
                        Files.createSymbolicLink(link, p);
                    }
                }
            }
        }
        return bin;
    }
}
