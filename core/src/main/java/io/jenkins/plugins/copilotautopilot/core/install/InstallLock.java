package io.jenkins.plugins.copilotautopilot.core.install;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The lock that keeps installers in other processes out of a folder while one installs into it: a file lock
 * on {@code <folder>.lock}, whose file is removed when the lock is released.
 *
 * <p>Removing the file is safe because a holder only counts as one when the file it locked is still the file
 * at the path: a waiter that gets the lock of a file the previous holder removed tries again with the file now
 * there. Files are compared by their file key (device and inode), read with {@code stat}: opening the lock file
 * a second time to compare contents would drop the process's POSIX lock when closed. Where there are no file
 * keys (Windows), the system keeps a removed file's name taken until its last handle closes, so no second file
 * can appear while a waiter holds the old one. Within one JVM, callers serialize first (the JVM refuses two
 * locks on one file).
 */
final class InstallLock implements Closeable {
    private static final Object MISSING = new Object();
    private static final Object NO_KEYS = new Object();

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;

    private InstallLock(Path file, FileChannel channel, FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
    }

    /** Waits for the lock of {@code file} and takes it, creating the file. */
    static InstallLock acquire(Path file) throws IOException {
        while (true) {
            try {
                Files.createFile(file);
            } catch (FileAlreadyExistsException exists) {
                // another installer's, or left by one that was killed: lock it
            } catch (AccessDeniedException pendingDelete) {
                pause(); // Windows: the previous holder's file is removed but still open somewhere
                continue;
            }
            Object before = key(file);
            if (before == MISSING) {
                continue;
            }
            FileChannel channel;
            try {
                channel = FileChannel.open(file, StandardOpenOption.WRITE);
            } catch (NoSuchFileException gone) {
                continue;
            } catch (AccessDeniedException pendingDelete) {
                pause();
                continue;
            }
            try {
                if (before == NO_KEYS) {
                    return new InstallLock(file, channel, channel.lock());
                }
                // the same key before and after opening: the channel has that file
                if (before.equals(key(file))) {
                    FileLock lock = channel.lock();
                    // while we hold its lock, that file cannot be removed: it is ours if it is still at the path
                    if (before.equals(key(file))) {
                        return new InstallLock(file, channel, lock);
                    }
                }
            } catch (IOException | RuntimeException e) {
                channel.close();
                throw e;
            }
            channel.close();
        }
    }

    /** The file key of {@code file} (read without opening it), {@link #NO_KEYS} where there are none, or {@link #MISSING}. */
    private static Object key(Path file) throws IOException {
        try {
            Object key = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
            return key == null ? NO_KEYS : key;
        } catch (NoSuchFileException gone) {
            return MISSING;
        }
    }

    private static void pause() throws InterruptedIOException {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while waiting for another Copilot CLI install to finish.");
        }
    }

    /** Removes the lock file, then releases the lock. */
    @Override
    public void close() throws IOException {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // the next installer locks and removes it
        } finally {
            try {
                lock.release();
            } finally {
                channel.close();
            }
        }
    }
}
