package io.jenkins.plugins.copilotautopilot.core.install;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Enumeration;
import java.util.Locale;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;

/**
 * Unpacks a downloaded (and already checked) CLI archive, {@code .tar.gz}/{@code .tgz}/{@code .tar} or {@code .zip},
 * into a folder with Apache Commons Compress: ustar, GNU and pax headers (long names, pax sizes, base-256
 * numbers). A tar header whose checksum does not match is refused; entries that would land outside the folder
 * ({@code ../}, absolute paths) are refused; links and special files are skipped; the executable bit is kept.
 */
final class Archives {
    private static final int BUFFER = 64 * 1024;

    private Archives() {
    }

    /** Whether {@link #extract} can unpack an archive of this file name. */
    static boolean isSupported(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.endsWith(".zip") || lower.endsWith(".tar.gz") || lower.endsWith(".tgz") || lower.endsWith(".tar");
    }

    /** Unpacks {@code archive}, whose format {@code name} tells, into {@code into}. */
    static void extract(Path archive, String name, Path into) throws IOException {
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".zip")) {
            unzip(archive, into);
        } else if (lower.endsWith(".tar.gz") || lower.endsWith(".tgz")) {
            try (InputStream in = new GZIPInputStream(Files.newInputStream(archive), BUFFER)) {
                untar(in, into);
            }
        } else if (lower.endsWith(".tar")) {
            try (InputStream in = new BufferedInputStream(Files.newInputStream(archive), BUFFER)) {
                untar(in, into);
            }
        } else {
            throw new IOException("Cannot unpack " + name + ": expected a .tar.gz, .tgz, .tar or .zip archive.");
        }
    }

    private static void unzip(Path archive, Path into) throws IOException {
        try (ZipFile zip = ZipFile.builder().setPath(archive).get()) {
            Enumeration<ZipArchiveEntry> entries = zip.getEntriesInPhysicalOrder();
            while (entries.hasMoreElements()) {
                ZipArchiveEntry entry = entries.nextElement();
                Path target = inside(into, entry.getName());
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                } else if (!entry.isUnixSymlink()) {
                    Files.createDirectories(target.getParent());
                    try (InputStream in = zip.getInputStream(entry)) {
                        copy(in, target);
                    }
                    // zip tools often record no Unix mode: the CLI binary is executable whatever the archive says
                    if ((entry.getUnixMode() & 0100) != 0 || target.getFileName().toString().startsWith("copilot")) {
                        executable(target);
                    }
                }
            }
        }
    }

    private static void untar(InputStream in, Path into) throws IOException {
        TarArchiveInputStream tar = new TarArchiveInputStream(in);
        TarArchiveEntry entry;
        while ((entry = tar.getNextEntry()) != null) {
            if (!entry.isCheckSumOK()) {
                throw new IOException("a tar header checksum does not match (entry '" + entry.getName()
                        + "'): the archive is corrupt");
            }
            Path target = inside(into, entry.getName());
            if (entry.isDirectory()) {
                Files.createDirectories(target);
            } else if (entry.isFile() && !entry.isLink() && !entry.isSymbolicLink()) {
                Files.createDirectories(target.getParent());
                copy(tar, target);
                if ((entry.getMode() & 0100) != 0) {
                    executable(target);
                }
            }
            // links and special files: not needed, not created
        }
    }

    /** {@code into/name}, refusing names that would leave {@code into}. */
    static Path inside(Path into, String name) throws IOException {
        String clean = name.replace('\\', '/');
        Path target = into.resolve(clean).normalize();
        if (clean.startsWith("/") || clean.matches("^[A-Za-z]:.*") || !target.startsWith(into.normalize())) {
            throw new IOException("Refusing archive entry outside the install folder: " + name);
        }
        return target;
    }

    private static void copy(InputStream in, Path target) throws IOException {
        byte[] buffer = new byte[BUFFER];
        try (OutputStream out = Files.newOutputStream(target)) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new InterruptedIOException("Interrupted while unpacking the Copilot CLI.");
                }
                out.write(buffer, 0, n);
            }
        }
    }

    private static void executable(Path file) throws IOException {
        try {
            Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
            permissions.add(PosixFilePermission.OWNER_EXECUTE);
            permissions.add(PosixFilePermission.GROUP_EXECUTE);
            permissions.add(PosixFilePermission.OTHERS_EXECUTE);
            Files.setPosixFilePermissions(file, permissions);
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system (Windows): nothing to set
        }
    }
}
