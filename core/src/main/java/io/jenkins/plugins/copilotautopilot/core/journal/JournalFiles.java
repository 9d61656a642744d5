package io.jenkins.plugins.copilotautopilot.core.journal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/** Journal files at rest: a finished journal is kept gzip-compressed ({@code .jsonl.gz}); readers take either form. */
public final class JournalFiles {
    public static final String COMPRESSED_SUFFIX = ".gz";

    private JournalFiles() {
    }

    /** The journal's lines, uncompressed, whichever way it is stored. */
    public static InputStream open(Path journal) throws IOException {
        InputStream in = Files.newInputStream(journal);
        return journal.getFileName().toString().endsWith(COMPRESSED_SUFFIX) ? new GZIPInputStream(in, 64 * 1024) : in;
    }

    /**
     * Compresses a finished journal next to itself ({@code name.gz}) and removes the plain file.
     *
     * @return the compressed file
     */
    public static Path compress(Path journal) throws IOException {
        Path compressed = journal.resolveSibling(journal.getFileName() + COMPRESSED_SUFFIX);
        Path partial = journal.resolveSibling(journal.getFileName() + COMPRESSED_SUFFIX + ".tmp");
        try (InputStream in = Files.newInputStream(journal);
             OutputStream out = new GZIPOutputStream(Files.newOutputStream(partial), 64 * 1024)) {
            in.transferTo(out);
        }
        Files.move(partial, compressed, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Files.delete(journal);
        return compressed;
    }
}
