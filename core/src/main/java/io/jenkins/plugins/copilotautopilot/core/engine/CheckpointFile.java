package io.jenkins.plugins.copilotautopilot.core.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;

/**
 * A {@link Checkpoint} kept in a small file that is rewritten in place: no file is created or renamed after the
 * first write. A follower saves one every two seconds at most while its session prints; with a thousand sessions, a
 * new file plus a rename each time (with the data flushed that a rename over a file implies on ext4) cost the
 * controller more than following the sessions did.
 *
 * <p>The file holds two slots of {@value #SLOT} bytes, each one checkpoint with a sequence number and a
 * checksum. A write goes to the older slot, so a write cut short leaves the newer one whole; a read takes the
 * newest slot whose checksum holds. A file in the earlier one-record text form ({@link Checkpoint#toText()}) is
 * still read.
 */
public final class CheckpointFile {
    static final int SLOT = 128;
    private static final String MAGIC = "checkpoint-v3";
    private static final String MAGIC_V2 = "checkpoint-v2";

    private CheckpointFile() {
    }

    /** Saves {@code checkpoint} in {@code file} (created if needed). */
    public static void write(Path file, Checkpoint checkpoint) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long sequence = newest(readAll(channel)).sequence + 1;
            ByteBuffer slot = ByteBuffer.wrap(encode(sequence, checkpoint));
            long at = (sequence & 1) * SLOT;
            while (slot.hasRemaining()) {
                channel.write(slot, at + slot.position());
            }
        }
    }

    /** The newest whole checkpoint in {@code file}; {@link Checkpoint#START} when there is none. */
    public static Checkpoint read(Path file) throws IOException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return Checkpoint.START;
        }
        Slot newest = newest(bytes);
        if (newest.checkpoint != null) {
            return newest.checkpoint;
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        return text.contains("outputOffset=") ? Checkpoint.parse(text) : Checkpoint.START; // the earlier form
    }

    private record Slot(long sequence, Checkpoint checkpoint) {
    }

    private static byte[] readAll(FileChannel channel) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(2 * SLOT);
        while (buffer.hasRemaining() && channel.read(buffer, buffer.position()) > 0) {
            // until both slots are read or the file ends
        }
        return java.util.Arrays.copyOf(buffer.array(), buffer.position());
    }

    private static Slot newest(byte[] bytes) {
        Slot newest = new Slot(0, null);
        for (int at = 0; at + SLOT <= bytes.length; at += SLOT) {
            Slot slot = decode(new String(bytes, at, SLOT, StandardCharsets.ISO_8859_1));
            if (slot != null && slot.sequence > newest.sequence) {
                newest = slot;
            }
        }
        return newest;
    }

    /** {@code checkpoint-v3 SEQ OUTPUT STDERR JOURNAL USAGE CRC}, padded with spaces, ending in a line feed. */
    static byte[] encode(long sequence, Checkpoint c) {
        String body = MAGIC + " " + sequence + " " + c.outputOffset() + " " + c.stderrOffset() + " " + c.journalBytes()
                + " " + c.usageOffset();
        String line = body + " " + Long.toHexString(crc(body));
        byte[] slot = new byte[SLOT];
        java.util.Arrays.fill(slot, (byte) ' ');
        byte[] text = line.getBytes(StandardCharsets.ISO_8859_1);
        System.arraycopy(text, 0, slot, 0, text.length); // at most 13 + 6 × 20 + 9 bytes: it fits
        slot[SLOT - 1] = '\n';
        return slot;
    }

    private static Slot decode(String slot) {
        String[] parts = slot.strip().split(" ");
        boolean v2 = parts.length == 6 && MAGIC_V2.equals(parts[0]); // written before usage was followed
        if (!v2 && (parts.length != 7 || !MAGIC.equals(parts[0]))) {
            return null;
        }
        int fields = parts.length - 1;
        String body = String.join(" ", java.util.Arrays.copyOf(parts, fields));
        try {
            if (Long.parseLong(parts[fields], 16) != crc(body)) {
                return null;
            }
            long sequence = Long.parseLong(parts[1]);
            Checkpoint checkpoint = new Checkpoint(Long.parseLong(parts[2]), Long.parseLong(parts[3]), Long.parseLong(parts[4]),
                    v2 ? 0 : Long.parseLong(parts[5]));
            return sequence > 0 && checkpoint.outputOffset() >= 0 && checkpoint.stderrOffset() >= 0 && checkpoint.journalBytes() >= 0
                    ? new Slot(sequence, checkpoint) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static long crc(String body) {
        CRC32 crc = new CRC32();
        crc.update(body.getBytes(StandardCharsets.ISO_8859_1));
        return crc.getValue();
    }
}
