package io.jenkins.plugins.copilotautopilot.core.runner;

import io.jenkins.plugins.copilotautopilot.core.runner.RunnerArguments.UsageException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Reads the task of {@code --prompt-file}: a UTF-8 file, or standard input for {@code -}. */
final class PromptFiles {
    private static final String OPTION = "--prompt-file";

    private PromptFiles() {
    }

    static String read(String file, InputStream stdin) throws UsageException {
        if ("-".equals(file)) {
            byte[] bytes;
            try {
                bytes = stdin.readAllBytes();
            } catch (IOException e) {
                throw new UsageException("cannot read the task from standard input: " + RunnerChecks.reason(e) + " (" + OPTION + " -)");
            }
            try {
                return utf8(bytes);
            } catch (CharacterCodingException e) {
                throw new UsageException("standard input is not UTF-8 text (" + OPTION + " -)");
            }
        }
        Path path;
        try {
            path = Path.of(file);
        } catch (InvalidPathException e) {
            throw new UsageException("'" + file + "' is not a valid file name (" + OPTION + ")");
        }
        if (Files.isDirectory(path)) {
            throw new UsageException("the prompt file " + file + " is a directory (" + OPTION + ")");
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            throw new UsageException("there is no prompt file " + file + " (" + OPTION + ")");
        } catch (AccessDeniedException e) {
            throw new UsageException("cannot read the prompt file " + file + ": permission denied (" + OPTION + ")");
        } catch (IOException e) {
            throw new UsageException("cannot read the prompt file " + file + ": " + RunnerChecks.reason(e) + " (" + OPTION + ")");
        }
        try {
            return utf8(bytes);
        } catch (CharacterCodingException e) {
            throw new UsageException("the prompt file " + file + " is not UTF-8 text (" + OPTION + "); save it as UTF-8");
        }
    }

    /** Strict UTF-8; a byte order mark (as some editors write) is dropped. */
    private static String utf8(byte[] bytes) throws CharacterCodingException {
        String text = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes)).toString();
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }
}
