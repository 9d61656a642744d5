package io.jenkins.plugins.copilotautopilot.core.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * Files and folders that hold secrets or what a session keeps, readable by their owner only: each made so when it is
 * created, never readable by others for a moment. On a file system without POSIX permissions (Windows) they are
 * created plainly and take the folder's access rules.
 */
public final class OwnerOnlyFiles {
    private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> FOLDER = PosixFilePermissions.fromString("rwx------");
    private static final String PART = ".part";

    private OwnerOnlyFiles() {
    }

    /**
     * Writes {@code content} as {@code target} whole: into a new file beside it ({@code target.part}) that only its
     * owner may read, then moved in place atomically, replacing what was there. Whoever reads {@code target} finds the
     * old content or the new, never a part; a write that fails leaves no part behind.
     */
    public static void write(Path target, byte[] content) throws IOException {
        Path part = target.resolveSibling(target.getFileName() + PART);
        Files.deleteIfExists(part);
        try {
            try (SeekableByteChannel out = create(part)) {
                ByteBuffer bytes = ByteBuffer.wrap(content);
                while (bytes.hasRemaining()) {
                    out.write(bytes);
                }
            }
            Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(part);
            } catch (IOException second) {
                e.addSuppressed(second);
            }
            throw e;
        }
    }

    /** A new file, refused when anything (a file, a link) is in the way. */
    private static SeekableByteChannel create(Path file) throws IOException {
        Set<StandardOpenOption> options = EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            return Files.newByteChannel(file, options, PosixFilePermissions.asFileAttribute(FILE));
        } catch (UnsupportedOperationException e) {
            return Files.newByteChannel(file, options);
        }
    }

    /**
     * A folder of its own (a control folder, a job's kept sessions): created where it is missing (with its parents,
     * which keep the usual permissions), and made readable by its owner only where it is there already.
     */
    public static void ownFolder(Path dir) throws IOException {
        if (!createFolder(dir)) {
            try {
                Files.setPosixFilePermissions(dir, FOLDER);
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system: nothing to tighten
            }
        }
    }

    /**
     * A folder that may be shared (one the user names, such as the runner's {@code --state-dir}): created where it is
     * missing, readable by its owner only; a folder that is there is left as it is, since its other files are not
     * ours to hide (the files written into it with {@link #write} are the owner's alone all the same).
     */
    public static void folder(Path dir) throws IOException {
        createFolder(dir);
    }

    /** Creates {@code dir} readable by its owner only, with its parents; false when it was there already. */
    private static boolean createFolder(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return false;
        }
        Path parent = dir.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try {
            createDirectory(dir);
            return true;
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(dir)) {
                throw e;
            }
            return false; // made meanwhile by someone else
        }
    }

    private static void createDirectory(Path dir) throws IOException {
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(FOLDER));
        } catch (UnsupportedOperationException e) {
            Files.createDirectory(dir);
        }
    }
}
