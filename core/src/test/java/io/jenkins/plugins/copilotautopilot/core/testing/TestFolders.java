package io.jenkins.plugins.copilotautopilot.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** One temporary folder for the sessions of a test JVM, removed when the JVM exits: tests leave nothing behind. */
public final class TestFolders {
    private static Path root;

    private TestFolders() {
    }

    public static synchronized Path root() {
        if (root == null) {
            try {
                root = Files.createTempDirectory("copilot-autopilot-tests-");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            Path doomed = root;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(doomed)));
        }
        return root;
    }

    private static void delete(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort at JVM exit
        }
    }
}
