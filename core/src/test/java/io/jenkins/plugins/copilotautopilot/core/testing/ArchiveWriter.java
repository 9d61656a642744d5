package io.jenkins.plugins.copilotautopilot.core.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Builds real archives for the installer tests: ustar {@code .tar}/{@code .tar.gz} (written entry by entry,
 * so a 200 MB binary streams straight from its file) and {@code .zip}.
 */
public final class ArchiveWriter {
    private final List<Entry> entries = new ArrayList<>();

    private record Entry(String name, int mode, byte[] bytes, Path file, char type) {
        long size() throws IOException {
            return file != null ? Files.size(file) : bytes.length;
        }

        InputStream open() throws IOException {
            return file != null ? Files.newInputStream(file) : new java.io.ByteArrayInputStream(bytes);
        }
    }

    public ArchiveWriter file(String name, int mode, String content) {
        entries.add(new Entry(name, mode, content.getBytes(StandardCharsets.UTF_8), null, '0'));
        return this;
    }

    public ArchiveWriter file(String name, int mode, Path content) {
        entries.add(new Entry(name, mode, null, content, '0'));
        return this;
    }

    public ArchiveWriter directory(String name) {
        entries.add(new Entry(name.endsWith("/") ? name : name + "/", 0755, new byte[0], null, '5'));
        return this;
    }

    /** A symbolic link entry (the installer skips links). */
    public ArchiveWriter symlink(String name) {
        entries.add(new Entry(name, 0777, new byte[0], null, '2'));
        return this;
    }

    /** A shell script that prints {@code output}: stands in for the CLI binary. */
    public static String script(String output) {
        return "#!/bin/sh\necho '" + output + "'\n";
    }

    public byte[] tarGz() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
            writeTar(gz);
        }
        return bytes.toByteArray();
    }

    public byte[] zip() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            for (Entry e : entries) {
                zip.putNextEntry(new ZipEntry(e.name));
                try (InputStream in = e.open()) {
                    in.transferTo(zip);
                }
                zip.closeEntry();
            }
        }
        return bytes.toByteArray();
    }

    /** Writes an uncompressed tar to {@code out} (not closed). */
    public void writeTar(OutputStream out) throws IOException {
        for (Entry e : entries) {
            long size = e.type == '0' ? e.size() : 0;
            out.write(header(e, size));
            if (size > 0) {
                try (InputStream in = e.open()) {
                    in.transferTo(out);
                }
                int rest = (int) (size % 512);
                if (rest != 0) {
                    out.write(new byte[512 - rest]);
                }
            }
        }
        out.write(new byte[1024]);
    }

    private static byte[] header(Entry e, long size) {
        byte[] h = new byte[512];
        byte[] name = e.name.getBytes(StandardCharsets.UTF_8);
        if (name.length > 100) {
            throw new IllegalArgumentException("test archive names are short: " + e.name);
        }
        System.arraycopy(name, 0, h, 0, name.length);
        octal(h, 100, 8, e.mode);
        octal(h, 108, 8, 0);
        octal(h, 116, 8, 0);
        octal(h, 124, 12, size);
        octal(h, 136, 12, 0);
        h[156] = (byte) e.type;
        if (e.type == '2') {
            byte[] target = "/etc/passwd".getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(target, 0, h, 157, target.length);
        }
        System.arraycopy("ustar\0".getBytes(StandardCharsets.US_ASCII), 0, h, 257, 6);
        h[263] = '0';
        h[264] = '0';
        for (int i = 148; i < 156; i++) {
            h[i] = ' ';
        }
        long sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        octal(h, 148, 7, sum);
        return h;
    }

    private static void octal(byte[] h, int offset, int length, long value) {
        String digits = Long.toOctalString(value);
        String padded = "0".repeat(Math.max(0, length - 1 - digits.length())) + digits;
        byte[] b = padded.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(b, 0, h, offset, b.length);
        h[offset + length - 1] = 0;
    }
}
