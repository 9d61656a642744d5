package io.jenkins.plugins.copilotautopilot.core.journal;

import com.fasterxml.jackson.databind.JsonNode;
import io.jenkins.plugins.copilotautopilot.core.events.CliEvent;
import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
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

    /**
     * What a finished journal's closing record ({@value EventJournal#RUN_FINISHED}) says of the session: its result as
     * the Pipeline step returns it. Null when the journal has none (it was cut before the end).
     */
    public static JsonNode closingRecord(Path journal) throws IOException {
        EventParser parser = new EventParser();
        JsonNode closing = null;
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(open(journal), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.contains(EventJournal.RUN_FINISHED) && parser.parse(line) instanceof CliEvent event
                        && EventJournal.RUN_FINISHED.equals(event.type())) {
                    closing = event.data();
                }
            }
        }
        return closing;
    }
}
