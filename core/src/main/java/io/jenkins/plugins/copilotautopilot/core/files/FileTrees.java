package io.jenkins.plugins.copilotautopilot.core.files;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Deletes a folder and everything in it, for whatever this project made and no longer needs (a control folder, an
 * installation being replaced, the runner's temporary files, a benchmark's work folder).
 *
 * <ul>
 *   <li>Links are removed, never followed: what a link in the tree points to stays, wherever it is.</li>
 *   <li>What is gone meanwhile is fine (a session's own cleanup may remove a file first), and a folder that gained a
 *       file while it was emptied (a watchdog's last heartbeat) is emptied again, a few times.</li>
 *   <li>A read-only entry goes too: a folder of the tree that its owner may not write (a Go module cache's, say) is made
 *       writable by its owner, and a file marked read-only (on Windows, git's object files) loses the mark, before it
 *       is deleted. Nothing outside the tree is changed.</li>
 *   <li>An entry that cannot be deleted does not stop the rest: all that can go goes, then the first failure is thrown,
 *       naming its entry, with the others suppressed in it.</li>
 * </ul>
 */
public final class FileTrees {
    private static final int ATTEMPTS = 5;
    /** The most failures kept, beyond the first, in what is thrown. */
    private static final int MAX_SUPPRESSED = 10;

    private FileTrees() {
    }

    /** Deletes {@code root} (a folder, a file or a link) and, for a folder, everything in it; nothing when it is not there. */
    public static void delete(Path root) throws IOException {
        for (int attempt = 1; ; attempt++) {
            Failures failures = deleteOnce(root);
            if (failures.first == null) {
                return;
            }
            if (!failures.onlyRefilled || attempt == ATTEMPTS) {
                throw failures.first;
            }
        }
    }

    /** One pass over the tree: what could not be deleted, in the order met (an entry before its folder). */
    private static Failures deleteOnce(Path root) throws IOException {
        Failures failures = new Failures();
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return failures;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                if (!Files.isWritable(dir)) {
                    dir.toFile().setWritable(true, true); // its entries go next; where this fails, their deletion says why
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                try {
                    deleteEntry(file, attrs);
                } catch (IOException e) {
                    failures.add(e);
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                if (!(e instanceof NoSuchFileException)) {
                    failures.add(e);
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) {
                if (e != null && !(e instanceof NoSuchFileException)) {
                    failures.add(e);
                }
                try {
                    Files.deleteIfExists(dir);
                } catch (IOException notDeleted) {
                    failures.add(notDeleted);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return failures;
    }

    /** The first failure of a pass, with a few more suppressed in it; whether all of them were folders refilled meanwhile. */
    private static final class Failures {
        IOException first;
        boolean onlyRefilled = true;

        void add(IOException e) {
            onlyRefilled &= e instanceof DirectoryNotEmptyException;
            if (first == null) {
                first = e;
            } else if (first.getSuppressed().length < MAX_SUPPRESSED) {
                first.addSuppressed(e);
            }
        }
    }

    private static void deleteEntry(Path file, BasicFileAttributes attrs) throws IOException {
        try {
            Files.deleteIfExists(file);
        } catch (AccessDeniedException e) {
            // a file marked read-only (on Windows it cannot be deleted so); a link is never made writable, as that
            // would change what it points to
            if (attrs.isSymbolicLink() || !file.toFile().setWritable(true, true)) {
                throw e;
            }
            Files.deleteIfExists(file);
        }
    }
}
