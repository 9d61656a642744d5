package io.jenkins.plugins.copilotautopilot.benchmark;

import io.jenkins.plugins.copilotautopilot.core.files.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A new folder of the benchmark's in a temporary root, deleted with all it holds when closed, and at the JVM's exit
 * if the run is cut short (Ctrl-C): a run leaves nothing behind however it ends.
 */
final class OwnedFolder implements AutoCloseable {
    private final Path path;
    private final Thread atExit;

    private OwnedFolder(Path path) {
        this.path = path;
        this.atExit = new Thread(this::deleteQuietly, "delete-" + path.getFileName());
        Runtime.getRuntime().addShutdownHook(atExit);
    }

    static OwnedFolder create(Path root, String prefix) throws IOException {
        return new OwnedFolder(Files.createTempDirectory(root, prefix));
    }

    Path path() {
        return path;
    }

    @Override
    public void close() throws IOException {
        try {
            Runtime.getRuntime().removeShutdownHook(atExit);
        } catch (IllegalStateException exiting) {
            return; // the hook runs (or ran) and deletes the folder
        }
        FileTrees.delete(path);
    }

    private void deleteQuietly() {
        try {
            FileTrees.delete(path);
        } catch (IOException e) {
            System.err.println("could not delete " + path + ": " + e.getMessage());
        }
    }
}
