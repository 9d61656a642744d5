package io.jenkins.plugins.copilotautopilot.core.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The real CLI outputs captured in {@code src/test/resources/captures/<name>/} (stdout.jsonl, exit.txt). */
public final class Captures {
    private static final Pattern EXIT = Pattern.compile("exit=(\\d+)");

    private Captures() {
    }

    public static byte[] stdout(String name) {
        return read(name, "stdout.jsonl");
    }

    public static String stdoutText(String name) {
        return new String(stdout(name), StandardCharsets.UTF_8);
    }

    public static int exitCode(String name) {
        Matcher m = EXIT.matcher(new String(read(name, "exit.txt"), StandardCharsets.UTF_8));
        if (!m.find()) {
            throw new IllegalStateException("no exit code in capture " + name);
        }
        return Integer.parseInt(m.group(1));
    }

    private static byte[] read(String name, String file) {
        String path = "/captures/" + name + "/" + file;
        try (InputStream in = Captures.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + path);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
