package io.jenkins.plugins.copilotautopilot.core.install;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Locale;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Unpacks a downloaded CLI archive ({@code .tar.gz}/{@code .tgz} or {@code .zip}) into a folder. Entries that
 * would land outside the folder ({@code ../}, absolute paths) are refused; links are skipped; the executable
 * bit is kept.
 */
final class Archives {
    private static final int BLOCK = 512;

    private Archives() {
    }

    /** Whether {@link #extract} can unpack an archive of this file name. */
    static boolean isSupported(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.endsWith(".zip") || lower.endsWith(".tar.gz") || lower.endsWith(".tgz") || lower.endsWith(".tar");
    }

    /**
     * Unpacks the archive read from {@code in} (not closed), named {@code name} to tell its format.
     * The caller reads what is left of {@code in} afterwards, so a checksum covers the whole download.
     */
    static void extract(InputStream in, String name, Path into) throws IOException {
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".zip")) {
            unzip(in, into);
        } else if (lower.endsWith(".tar.gz") || lower.endsWith(".tgz")) {
            untar(new GZIPInputStream(new NonClosing(in), 64 * 1024), into);
        } else if (lower.endsWith(".tar")) {
            untar(in, into);
        } else {
            throw new IOException("Cannot unpack " + name + ": expected a .tar.gz, .tgz, .tar or .zip archive.");
        }
    }

    static void unzip(InputStream in, Path into) throws IOException {
        try (ZipInputStream zip = new ZipInputStream(new NonClosing(in))) {
            ZipEntry entry;
            while ((entry = zip.getNextEntry()) != null) {
                Path target = inside(into, entry.getName());
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                } else {
                    Files.createDirectories(target.getParent());
                    Files.copy(zip, target, StandardCopyOption.REPLACE_EXISTING);
                    if (target.getFileName().toString().startsWith("copilot")) {
                        executable(target);
                    }
                }
            }
        }
    }

    /** A tar stream (ustar, with GNU long names and pax path headers). */
    static void untar(InputStream in, Path into) throws IOException {
        byte[] header = new byte[BLOCK];
        String longName = null;
        while (true) {
            if (in.readNBytes(header, 0, BLOCK) < BLOCK || isZero(header)) {
                return;
            }
            String name = longName != null ? longName : name(header);
            longName = null;
            long size = octal(header, 124, 12);
            int mode = (int) octal(header, 100, 8);
            char type = (char) header[156];
            switch (type) {
                case 'L' -> longName = trimNul(new String(read(in, size), StandardCharsets.UTF_8));
                case 'x' -> longName = paxPath(new String(read(in, size), StandardCharsets.UTF_8));
                case 'g' -> read(in, size);
                case '5' -> {
                    Files.createDirectories(inside(into, name));
                    skipPadding(in, 0);
                }
                case '0', '\0', '7' -> {
                    Path target = inside(into, name);
                    Files.createDirectories(target.getParent());
                    try (var out = Files.newOutputStream(target)) {
                        copy(in, out, size);
                    }
                    skipPadding(in, size);
                    if ((mode & 0100) != 0) {
                        executable(target);
                    }
                }
                default -> skip(in, size); // links and special files: not needed, not created
            }
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

    private static String name(byte[] header) {
        String name = trimNul(new String(header, 0, 100, StandardCharsets.UTF_8));
        String magic = new String(header, 257, 5, StandardCharsets.US_ASCII);
        if ("ustar".equals(magic)) {
            String prefix = trimNul(new String(header, 345, 155, StandardCharsets.UTF_8));
            if (!prefix.isEmpty()) {
                return prefix + "/" + name;
            }
        }
        return name;
    }

    private static String paxPath(String records) {
        for (String record : records.split("\n")) {
            int space = record.indexOf(' ');
            if (space > 0 && record.startsWith("path=", space + 1)) {
                return record.substring(space + 1 + "path=".length());
            }
        }
        return null;
    }

    private static long octal(byte[] header, int offset, int length) throws IOException {
        long value = 0;
        for (int i = offset; i < offset + length; i++) {
            byte b = header[i];
            if (b == 0 || b == ' ') {
                continue;
            }
            if (b < '0' || b > '7') {
                throw new IOException("Not a tar archive (bad number in a header).");
            }
            value = value * 8 + (b - '0');
        }
        return value;
    }

    private static boolean isZero(byte[] block) {
        for (byte b : block) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    private static String trimNul(String s) {
        int nul = s.indexOf('\0');
        return nul >= 0 ? s.substring(0, nul) : s;
    }

    private static byte[] read(InputStream in, long size) throws IOException {
        if (size > 1 << 20) {
            throw new IOException("Not a tar archive (a header record of " + size + " bytes).");
        }
        byte[] data = in.readNBytes((int) size);
        if (data.length < size) {
            throw new IOException("The archive ends early.");
        }
        skipPadding(in, size);
        return data;
    }

    private static void copy(InputStream in, java.io.OutputStream out, long size) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        long left = size;
        while (left > 0) {
            if (Thread.currentThread().isInterrupted()) {
                throw new java.io.InterruptedIOException("Interrupted while unpacking the Copilot CLI.");
            }
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (n < 0) {
                throw new IOException("The archive ends early.");
            }
            out.write(buffer, 0, n);
            left -= n;
        }
    }

    private static void skip(InputStream in, long size) throws IOException {
        in.skipNBytes(size + padding(size));
    }

    private static void skipPadding(InputStream in, long size) throws IOException {
        in.skipNBytes(padding(size));
    }

    /** Lets a wrapping stream be closed without closing the download under it. */
    private static final class NonClosing extends java.io.FilterInputStream {
        NonClosing(InputStream in) {
            super(in);
        }

        @Override
        public void close() {
            // the caller owns the underlying stream
        }
    }

    private static long padding(long size) {
        long rest = size % BLOCK;
        return rest == 0 ? 0 : BLOCK - rest;
    }
}
