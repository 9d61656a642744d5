package io.jenkins.plugins.copilotautopilot.core.install;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The lock that keeps installers in other processes out of a folder while one installs into it: a file lock
 * on {@code <folder>.lock}, whose file is removed when the lock is released.
 *
 * <p>Removing the file is safe because a holder only counts as one when the file it locked is still the file
 * at the path: a waiter that gets the lock of a file the previous holder removed tries again with the file now
 * there. To tell, the holder opens the path a second time and asks the JVM for a lock through that channel: the
 * JVM refuses it ({@link OverlappingFileLockException}) exactly when it is the file this JVM has locked — the JVM
 * compares the open files themselves (device and inode of each descriptor), so a new file that got a freed inode
 * number is never mistaken for the old one, as comparing keys read with {@code stat} before and after opening did
 * on a busy machine. That second channel stays open until the lock is released: closing it would drop the
 * process's POSIX lock on the file. Within one JVM, callers serialize first ({@code CliInstaller}), so a refusal
 * can only mean this caller's lock.
 */
final class InstallLock implements Closeable {
    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;
    private final FileChannel atPath;

    private InstallLock(Path file, FileChannel channel, FileLock lock, FileChannel atPath) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
        this.atPath = atPath;
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
            FileChannel channel = open(file);
            if (channel == null) {
                continue;
            }
            try {
                FileLock lock = channel.lock();
                FileChannel atPath = open(file);
                if (atPath != null) {
                    if (isLockedByThisJvm(atPath)) {
                        return new InstallLock(file, channel, lock, atPath);
                    }
                    atPath.close();
                }
            } catch (IOException | RuntimeException e) {
                channel.close();
                throw e;
            }
            channel.close(); // the file we locked was removed meanwhile: take the one there now
        }
    }

    /** The file at {@code file} opened, or null when there is none right now. */
    private static FileChannel open(Path file) throws IOException {
        try {
            return FileChannel.open(file, StandardOpenOption.WRITE);
        } catch (NoSuchFileException gone) {
            return null;
        } catch (AccessDeniedException pendingDelete) {
            pause();
            return null;
        }
    }

    /** Whether the file open in {@code atPath} is one this JVM holds a lock on. */
    private static boolean isLockedByThisJvm(FileChannel atPath) throws IOException {
        try {
            FileLock other = atPath.tryLock();
            if (other != null) {
                other.release(); // nobody's: not the file we locked
            }
            return false; // or another process's
        } catch (OverlappingFileLockException ours) {
            return true;
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
                try {
                    channel.close();
                } finally {
                    atPath.close();
                }
            }
        }
    }
}
