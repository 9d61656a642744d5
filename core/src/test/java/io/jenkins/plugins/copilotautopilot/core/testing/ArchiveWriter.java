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
 * so a 200 MB binary streams straight from its file; optionally with pax long names, base-256 sizes or
 * corrupt header checksums) and {@code .zip}.
 */
public final class ArchiveWriter {
    private final List<Entry> entries = new ArrayList<>();
    private boolean corruptChecksums;
    private boolean base256Sizes;

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

    /** A file whose name is written as a pax extended header ({@code path=} and {@code size=} records), as for names over 100 bytes. */
    public ArchiveWriter paxFile(String name, int mode, String content) {
        entries.add(new Entry(name, mode, content.getBytes(StandardCharsets.UTF_8), null, 'P'));
        return this;
    }

    /** Writes every header with a wrong checksum (as a corrupt download would have). */
    public ArchiveWriter corruptChecksums() {
        corruptChecksums = true;
        return this;
    }

    /** Writes sizes in GNU base-256 (binary) form, as tar does for files of 8 GiB and more. */
    public ArchiveWriter base256Sizes() {
        base256Sizes = true;
        return this;
    }

    /** A symbolic link entry (the installer skips links). */
    public ArchiveWriter symlink(String name) {
        entries.add(new Entry(name, 0777, new byte[0], null, '2'));
        return this;
    }

    /** Every entry of a {@code .tar.gz}: its name, then its content as UTF-8 text, one after the other. */
    public static String textOfTarGz(byte[] archive) throws IOException {
        StringBuilder text = new StringBuilder();
        try (org.apache.commons.compress.archivers.tar.TarArchiveInputStream tar = new org.apache.commons.compress.archivers.tar
                .TarArchiveInputStream(new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(archive)))) {
            org.apache.commons.compress.archivers.tar.TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                text.append("== ").append(entry.getName()).append('\n').append(new String(tar.readAllBytes(), StandardCharsets.UTF_8))
                        .append('\n');
            }
        }
        return text.toString();
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
            Entry entry = e;
            if (e.type == 'P') {
                long size = e.size();
                byte[] records = (paxRecord("path", e.name) + paxRecord("size", String.valueOf(size))).getBytes(StandardCharsets.UTF_8);
                out.write(header(new Entry("PaxHeaders/long-name", 0644, records, null, 'x'), records.length));
                out.write(records);
                pad(out, records.length);
                entry = new Entry("long-name-truncated", e.mode, e.bytes, e.file, '0');
            }
            long size = entry.type == '0' ? entry.size() : 0;
            out.write(header(entry, size));
            if (size > 0) {
                try (InputStream in = entry.open()) {
                    in.transferTo(out);
                }
                pad(out, size);
            }
        }
        out.write(new byte[1024]);
    }

    private static void pad(OutputStream out, long size) throws IOException {
        int rest = (int) (size % 512);
        if (rest != 0) {
            out.write(new byte[512 - rest]);
        }
    }

    /** One pax record: its length in bytes (counting the length itself), a space, key=value, a line feed. */
    private static String paxRecord(String key, String value) {
        int body = (" " + key + "=" + value + "\n").getBytes(StandardCharsets.UTF_8).length;
        int length = body + String.valueOf(body).length();
        if (String.valueOf(length).length() != String.valueOf(body).length()) {
            length++;
        }
        return length + " " + key + "=" + value + "\n";
    }

    private byte[] header(Entry e, long size) {
        byte[] h = new byte[512];
        byte[] name = e.name.getBytes(StandardCharsets.UTF_8);
        if (name.length > 100) {
            throw new IllegalArgumentException("test archive names are short (use paxFile for long ones): " + e.name);
        }
        System.arraycopy(name, 0, h, 0, name.length);
        octal(h, 100, 8, e.mode);
        octal(h, 108, 8, 0);
        octal(h, 116, 8, 0);
        if (base256Sizes) {
            h[124] = (byte) 0x80;
            for (int i = 0; i < 8; i++) {
                h[135 - i] = (byte) (size >>> (8 * i));
            }
        } else {
            octal(h, 124, 12, size);
        }
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
        octal(h, 148, 7, corruptChecksums ? sum + 1 : sum);
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
