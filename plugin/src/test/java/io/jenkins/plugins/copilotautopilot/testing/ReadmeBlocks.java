package io.jenkins.plugins.copilotautopilot.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The README's examples, as tests run them: the fenced block after an HTML comment {@code <!-- test: name -->}. Tests
 * run from the plugin module's folder, whose parent holds the README.
 */
public final class ReadmeBlocks {
    public static final Path README = Path.of("..", "README.md");

    private ReadmeBlocks() {
    }

    public static String block(String name) throws IOException {
        String readme = Files.readString(README, StandardCharsets.UTF_8);
        String marker = "<!-- test: " + name + " -->";
        int at = readme.indexOf(marker);
        if (at < 0) {
            throw new AssertionError("README.md has no block marked " + marker);
        }
        int fence = readme.indexOf("```", at);
        int start = readme.indexOf('\n', fence) + 1;
        int end = readme.indexOf("\n```", start);
        if (fence < 0 || end < 0 || readme.substring(at + marker.length(), fence).strip().length() > 0) {
            throw new AssertionError("the marker " + marker + " in README.md is not followed by a fenced block");
        }
        return readme.substring(start, end + 1);
    }
}
