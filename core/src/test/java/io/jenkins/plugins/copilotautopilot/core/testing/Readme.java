package io.jenkins.plugins.copilotautopilot.core.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The project's README, as the tests that check what it shows read it. */
public final class Readme {
    private Readme() {
    }

    public static List<String> lines() throws IOException {
        return Files.readAllLines(path(), StandardCharsets.UTF_8);
    }

    /** The lines of the first {@code ```text} block after the line {@code marker}. */
    public static List<String> textBlockAfter(String marker) throws IOException {
        List<String> lines = lines();
        int at = lines.indexOf(marker);
        if (at < 0) {
            throw new IllegalStateException("the README has no line '" + marker + "'");
        }
        int start = lines.subList(at, lines.size()).indexOf("```text") + at + 1;
        int end = lines.subList(start, lines.size()).indexOf("```") + start;
        if (start <= at || end < start) {
            throw new IllegalStateException("the README has no text block after '" + marker + "'");
        }
        return lines.subList(start, end);
    }

    private static Path path() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("core"))) {
                return dir.resolve("README.md");
            }
        }
        throw new IllegalStateException("no README.md above " + Path.of("").toAbsolutePath());
    }
}
