package io.jenkins.plugins.copilotautopilot.core.runner;

import io.jenkins.plugins.copilotautopilot.core.prepare.InlineOrFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** The runner's files, named as on its command line (relative to where it runs); {@code -} is standard input where it may be. */
final class LocalFiles implements InlineOrFile.Files {
    private final InputStream stdin;

    /** @param stdin what {@code -} reads, or null where {@code -} is a file's name */
    LocalFiles(InputStream stdin) {
        this.stdin = stdin;
    }

    @Override
    public InlineOrFile.Content read(String name, int maxBytes) {
        if ("-".equals(name) && stdin != null) {
            try {
                byte[] bytes = stdin.readNBytes(maxBytes + 1);
                return new InlineOrFile.Bytes(bytes, bytes.length);
            } catch (IOException e) {
                return new InlineOrFile.Failed(RunnerChecks.reason(e));
            }
        }
        Path path;
        try {
            path = Path.of(name);
        } catch (InvalidPathException e) {
            return new InlineOrFile.Failed("not a valid file name");
        }
        if (Files.isDirectory(path)) {
            return new InlineOrFile.Folder();
        }
        try (InputStream in = Files.newInputStream(path)) {
            byte[] bytes = in.readNBytes(maxBytes + 1);
            return new InlineOrFile.Bytes(bytes, Math.max(bytes.length, Files.size(path)));
        } catch (NoSuchFileException e) {
            return new InlineOrFile.Missing();
        } catch (AccessDeniedException e) {
            return new InlineOrFile.Failed("permission denied");
        } catch (IOException e) {
            return new InlineOrFile.Failed(RunnerChecks.reason(e));
        }
    }
}
