package io.jenkins.plugins.copilotautopilot.core.kept;

import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * The CLI's state of a session kept for a later run ({@code tar.gz} of its {@code session-state/ID} folder), made fit to
 * cross from one run to another before it is stored and before it is handed to the next run's machine:
 * <ul>
 *   <li>no path of the earlier run: {@code workspace.yaml} loses its {@code cwd}, which CLI 1.0.102 changes into on
 *       {@code --resume} (the tools would work in the earlier build's workspace, under its path policy); without it
 *       the CLI works in the directory it is started in;</li>
 *   <li>no secret: every text file is masked with the session's {@link SecretMasker} (the journal's), so what a tool
 *       printed is kept as the journal keeps it;</li>
 *   <li>nothing that unpacks outside the session's folder: only directories and regular files below one
 *       top-level folder named like a session id; links, devices, absolute paths and {@code ..} are refused.</li>
 * </ul>
 * Measured with CLI 1.0.102: a session whose {@code workspace.yaml} has no {@code cwd} and whose events were masked
 * resumes, and its tools run in the new working directory.
 */
public final class KeptSessionState {
    /** The session's folder name: the CLI's session ids are UUIDs. */
    private static final Pattern SESSION_FOLDER = Pattern.compile("[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}");
    private static final Pattern CWD_LINE = Pattern.compile("(?m)^cwd:.*(?:\\r?\\n|\\z)");
    private static final String WORKSPACE_FILE = "workspace.yaml";

    private KeptSessionState() {
    }

    /** Why a packed state cannot be used. */
    public static final class UnusableStateException extends IOException {
        private static final long serialVersionUID = 1L;

        UnusableStateException(String message) {
            super(message);
        }
    }

    /**
     * The state with the earlier run's working directory left out and secrets masked.
     *
     * @throws UnusableStateException when it is no {@code tar.gz} of one session's folder, or holds an entry that
     *                                would land outside it
     */
    public static byte[] sanitize(byte[] packed, SecretMasker masker) throws IOException {
        ByteArrayOutputStream result = new ByteArrayOutputStream(Math.max(1024, packed.length));
        String folder = null;
        try (InputStream gz = gunzip(packed);
             TarArchiveInputStream in = new TarArchiveInputStream(gz);
             TarArchiveOutputStream out = new TarArchiveOutputStream(new GZIPOutputStream(result))) {
            out.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            out.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
            TarArchiveEntry entry;
            while ((entry = in.getNextEntry()) != null) {
                String name = entry.getName();
                String top = topFolder(name);
                if (folder == null) {
                    folder = top;
                } else if (!folder.equals(top)) {
                    throw new UnusableStateException("the kept session holds more than one session (" + folder + ", " + top + ")");
                }
                if (entry.isSymbolicLink() || entry.isLink() || entry.isCharacterDevice() || entry.isBlockDevice()
                        || entry.isFIFO()) {
                    throw new UnusableStateException("the kept session holds a link or special file: " + printable(name));
                } else if (entry.isDirectory()) {
                    TarArchiveEntry dir = new TarArchiveEntry(name.endsWith("/") ? name : name + "/");
                    dir.setModTime(entry.getModTime());
                    dir.setMode(0700);
                    out.putArchiveEntry(dir);
                    out.closeArchiveEntry();
                } else if (entry.isFile()) {
                    byte[] content = in.readAllBytes();
                    byte[] kept = clean(name, content, masker);
                    TarArchiveEntry file = new TarArchiveEntry(name);
                    file.setModTime(entry.getModTime());
                    file.setMode(0600);
                    file.setSize(kept.length);
                    out.putArchiveEntry(file);
                    out.write(kept);
                    out.closeArchiveEntry();
                } else {
                    throw new UnusableStateException("the kept session holds a link or special file: " + printable(name));
                }
            }
            if (folder == null) {
                throw new UnusableStateException("the kept session holds no session");
            }
        } catch (java.util.zip.ZipException | IllegalArgumentException e) {
            throw new UnusableStateException("the kept session is no tar.gz archive (" + e.getMessage() + ")");
        }
        return result.toByteArray();
    }

    /** The session's top-level folder of an entry's name, checked. */
    private static String topFolder(String name) throws UnusableStateException {
        if (name.isEmpty() || name.startsWith("/") || name.contains("\\") || name.chars().anyMatch(c -> c < 0x20)) {
            throw new UnusableStateException("the kept session holds an entry outside its folder: " + printable(name));
        }
        String[] parts = name.split("/");
        for (String part : parts) {
            if (part.equals("..") || part.equals(".")) {
                throw new UnusableStateException("the kept session holds an entry outside its folder: " + printable(name));
            }
        }
        if (!SESSION_FOLDER.matcher(parts[0]).matches()) {
            throw new UnusableStateException("the kept session's folder is not named like a session: " + printable(parts[0]));
        }
        return parts[0];
    }

    private static byte[] clean(String name, byte[] content, SecretMasker masker) {
        String text = utf8(content);
        if (text == null) {
            return content; // not text: nothing the CLI writes there holds a tool's words
        }
        String cleaned = text;
        if (name.endsWith("/" + WORKSPACE_FILE) && name.indexOf('/') == name.length() - WORKSPACE_FILE.length() - 1) {
            cleaned = CWD_LINE.matcher(cleaned).replaceAll("");
        }
        cleaned = masker.mask(cleaned);
        return cleaned == text ? content : cleaned.getBytes(StandardCharsets.UTF_8);
    }

    private static String utf8(byte[] content) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(content)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static InputStream gunzip(byte[] packed) throws UnusableStateException {
        try {
            return new GZIPInputStream(new ByteArrayInputStream(packed));
        } catch (IOException e) {
            throw new UnusableStateException("the kept session is no tar.gz archive (" + e.getMessage() + ")");
        }
    }

    private static String printable(String name) {
        String shown = name.replaceAll("\\p{Cntrl}", "?");
        return shown.length() > 120 ? shown.substring(0, 120) + "…" : shown;
    }
}
