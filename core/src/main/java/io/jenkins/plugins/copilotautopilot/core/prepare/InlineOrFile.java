package io.jenkins.plugins.copilotautopilot.core.prepare;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The one reader of a setting's text that is given inline or as a file: {@code outputSchema} and {@code mcpServers}
 * ({@code @file}, or the text itself), {@code promptFile} (always a file), and the runner's {@code --prompt-file},
 * {@code --output-schema}, {@code --mcp-config}. Where the file is read (a workspace on an agent, the trusted
 * revision of a change request, the runner's disk) is the caller's {@link Files}; how each problem is worded, the
 * caller's {@link Wording}. The rules are the same everywhere: at most a limit of bytes, UTF-8 text (a byte order mark
 * dropped), and for a task, not blank.
 */
public final class InlineOrFile {
    private InlineOrFile() {
    }

    /** Where the files a setting names are read. */
    public interface Files {
        /** What the file holds, at most {@code maxBytes + 1} bytes of it, or what is in the way; reads within a time limit. */
        Content read(String name, int maxBytes) throws IOException, InterruptedException;
    }

    /** What reading a file found. */
    public sealed interface Content {
    }

    /**
     * The file's first bytes, and its whole size when the source knows it (else the bytes'), so that a file too large
     * is named with its size.
     */
    public record Bytes(byte[] bytes, long size) implements Content {
    }

    /** There is no such file. */
    public record Missing() implements Content {
    }

    /** The name is a folder's. */
    public record Folder() implements Content {
    }

    /** It could not be read, for a reason the wording puts in its words ({@code permission denied}). */
    public record Failed(String why) implements Content {
    }

    /** The source refuses it, saying why in a whole line of its own (a trusted revision without the file). */
    public record Refused(String problem) implements Content {
    }

    /** How the caller words each problem of a setting's file, naming the file as the user gave it. */
    public interface Wording {
        String missing(String name);

        String folder(String name);

        String tooLarge(String name, long bytes, int maxBytes);

        String empty(String name);

        String notText(String name);

        String failed(String name, String why);
    }

    /** What a setting's file may hold. */
    public record Limits(int maxBytes, boolean blankRefused) {
    }

    /** Whether a value names a file ({@code @file}) rather than being the text itself. */
    public static boolean namesFile(String value) {
        return value.startsWith("@");
    }

    /** The text of {@code value}: itself, or the text of the file it names with {@code @} (the name stripped). */
    public static String text(String value, Limits limits, Files files, Wording wording)
            throws Unusable, IOException, InterruptedException {
        return namesFile(value) ? file(value.substring(1).strip(), limits, files, wording) : value;
    }

    /** The text of the file {@code name}. */
    public static String file(String name, Limits limits, Files files, Wording wording)
            throws Unusable, IOException, InterruptedException {
        Content content = files.read(name, limits.maxBytes());
        if (content instanceof Missing) {
            throw new Unusable(wording.missing(name));
        }
        if (content instanceof Folder) {
            throw new Unusable(wording.folder(name));
        }
        if (content instanceof Failed failed) {
            throw new Unusable(wording.failed(name, failed.why()));
        }
        if (content instanceof Refused refused) {
            throw new Unusable(refused.problem());
        }
        Bytes read = (Bytes) content;
        long size = Math.max(read.size(), read.bytes().length);
        if (size > limits.maxBytes()) {
            throw new Unusable(wording.tooLarge(name, size, limits.maxBytes()));
        }
        String text;
        try {
            text = utf8(read.bytes());
        } catch (CharacterCodingException e) {
            throw new Unusable(wording.notText(name));
        }
        if (limits.blankRefused() && text.isBlank()) {
            throw new Unusable(wording.empty(name));
        }
        return text;
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
