package io.jenkins.plugins.copilotautopilot.core.install;

import io.jenkins.plugins.copilotautopilot.core.command.Platform;
import io.jenkins.plugins.copilotautopilot.core.files.FileTrees;
import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.command.CliLocator;
import io.jenkins.plugins.copilotautopilot.core.command.CliNotFoundException;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.Reader;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Installs a Copilot CLI release into a folder: downloads the archive for the platform into a temporary file,
 * checks its SHA-256, only then unpacks it into a staging folder, finds the native binary in it, and only then
 * replaces the folder. A marker file records what was installed, so the same release is not downloaded again; a failed
 * or mismatching download leaves the previous installation as it was.
 */
public final class CliInstaller {
    /** Written into the install folder; records the version, the (redacted) URL and the archive's SHA-256. */
    public static final String MARKER = ".copilot-autopilot-installed";

    private static final ConcurrentHashMap<Path, ReentrantLock> LOCKS = new ConcurrentHashMap<>();

    private final Downloads downloads;
    private final Consumer<String> log;

    /** @param log receives one line per step (download, checksum, result) */
    public CliInstaller(Consumer<String> log) {
        this(new Downloads(), log);
    }

    public CliInstaller(Downloads downloads, Consumer<String> log) {
        this.downloads = Objects.requireNonNull(downloads);
        this.log = Objects.requireNonNull(log);
    }

    /**
     * Makes {@code home} hold {@code release} for {@code platform}, downloading it unless it is there already.
     *
     * @return the native binary inside {@code home}
     */
    public CliExecutable install(Path home, Platform platform, CliRelease release)
            throws IOException, InterruptedException {
        URI url = release.url(platform);
        String shownUrl = Urls.redact(url);
        Path folder = home.toAbsolutePath().normalize();
        Files.createDirectories(folder.getParent());
        ReentrantLock jvmLock = LOCKS.computeIfAbsent(folder, f -> new ReentrantLock());
        jvmLock.lockInterruptibly();
        try (InstallLock ignored = InstallLock.acquire(folder.resolveSibling(folder.getFileName() + ".lock"))) {
            CliExecutable installed = installedAlready(folder, shownUrl, release);
            if (installed != null) {
                log.accept("Copilot CLI " + release.version() + " is already installed in " + folder + ".");
                return installed;
            }
            return downloadAndUnpack(folder, platform, release, url, shownUrl);
        } finally {
            jvmLock.unlock();
        }
    }

    private CliExecutable downloadAndUnpack(Path folder, Platform platform, CliRelease release, URI url, String shownUrl)
            throws IOException, InterruptedException {
        refuseForeignFolder(folder);
        log.accept("Installing Copilot CLI " + release.version() + " for " + platform.id() + " from " + shownUrl);
        Path archive = Files.createTempFile(folder.getParent(), "." + folder.getFileName() + ".download-", ".part");
        try {
            long size = download(url, shownUrl, archive);
            String actual = sha256Of(archive);
            if (release.sha256() != null && !release.sha256().equals(actual)) {
                throw new CliInstallException("The Copilot CLI archive from " + shownUrl + " has SHA-256 " + actual
                        + ", not the expected " + release.sha256() + ". Nothing was installed. Check the checksum"
                        + " configured for version " + release.version() + " and the download URL.");
            }
            Path staging = Files.createTempDirectory(folder.getParent(), "." + folder.getFileName() + ".partial-");
            try {
                unpack(archive, archiveName(url), shownUrl, staging);
                if (locate(staging) == null) {
                    throw new CliInstallException("The archive from " + shownUrl + " holds no Copilot CLI executable"
                            + " (looked for '" + platform.executableName() + "' at its top level, in bin/ and in package/)."
                            + " Check the download URL template.");
                }
                writeMarker(staging, release, shownUrl, actual, platform);
                replace(folder, staging);
            } finally {
                FileTrees.delete(staging);
            }
            CliExecutable cli = locate(folder);
            if (cli == null) {
                throw new CliInstallException("The Copilot CLI was unpacked into " + folder + " but cannot be found there.");
            }
            log.accept("Installed Copilot CLI " + release.version() + " (" + Texts.bytes(size) + ", SHA-256 " + actual
                    + ") in " + folder + ".");
            return cli;
        } finally {
            Files.deleteIfExists(archive);
        }
    }

    /** Saves the download to {@code archive}; nothing is unpacked before its checksum is known. */
    private long download(URI url, String shownUrl, Path archive) throws IOException, InterruptedException {
        try (InputStream in = downloads.open(url); OutputStream out = Files.newOutputStream(archive)) {
            byte[] buffer = new byte[64 * 1024];
            long size = 0;
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (Thread.interrupted()) {
                    throw new InterruptedException("Interrupted while downloading the Copilot CLI.");
                }
                out.write(buffer, 0, n);
                size += n;
            }
            return size;
        } catch (CliInstallException | InterruptedIOException e) {
            throw e;
        } catch (IOException e) {
            throw new CliInstallException("Could not download the Copilot CLI from " + shownUrl + ": " + describe(e)
                    + ". Nothing was installed.", e);
        }
    }

    private static void unpack(Path archive, String name, String shownUrl, Path staging) throws IOException {
        try {
            Archives.extract(archive, name, staging);
        } catch (InterruptedIOException e) {
            throw e;
        } catch (IOException e) {
            throw new CliInstallException("Could not unpack the Copilot CLI archive from " + shownUrl + ": " + describe(e)
                    + ". Nothing was installed. Check the download URL template: a proxy or mirror may have answered"
                    + " with a web page instead of the archive.", e);
        }
    }

    private static String describe(IOException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static String sha256Of(Path file) throws IOException {
        MessageDigest sha256 = sha256();
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[64 * 1024];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                sha256.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(sha256.digest());
    }

    private static CliExecutable installedAlready(Path folder, String shownUrl, CliRelease release) {
        Path marker = folder.resolve(MARKER);
        if (!Files.isRegularFile(marker)) {
            return null;
        }
        Properties recorded = new Properties();
        try (Reader in = Files.newBufferedReader(marker, StandardCharsets.UTF_8)) {
            recorded.load(in);
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
        boolean same = shownUrl.equals(recorded.getProperty("url"))
                && (release.sha256() == null || release.sha256().equals(recorded.getProperty("sha256")));
        return same ? locate(folder) : null;
    }

    /** An install replaces the folder: never one holding files this installer did not put there. */
    private static void refuseForeignFolder(Path folder) throws IOException {
        if (!Files.isDirectory(folder) || Files.exists(folder.resolve(MARKER))) {
            return;
        }
        try (var entries = Files.list(folder)) {
            if (entries.findAny().isPresent()) {
                throw new CliInstallException("Not installing the Copilot CLI into " + folder + ": the folder already"
                        + " holds files that were not installed here, and an install replaces the whole folder. Choose an"
                        + " empty or new folder (or leave the installation's home empty for the default).");
            }
        }
    }

    private static void writeMarker(Path folder, CliRelease release, String shownUrl, String sha256, Platform platform)
            throws IOException {
        Properties marker = new Properties();
        marker.setProperty("version", release.version());
        marker.setProperty("platform", platform.id());
        marker.setProperty("url", shownUrl);
        marker.setProperty("sha256", sha256);
        try (Writer out = Files.newBufferedWriter(folder.resolve(MARKER), StandardCharsets.UTF_8)) {
            marker.store(out, "Installed by copilot-autopilot; delete this file to force a new download");
        }
    }

    private static CliExecutable locate(Path folder) {
        try {
            return new CliLocator().locate(folder.toString(), null, "the tool installation");
        } catch (CliNotFoundException e) {
            return null;
        }
    }

    private static void replace(Path folder, Path staging) throws IOException {
        FileTrees.delete(folder);
        try {
            Files.move(staging, folder, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(staging, folder);
        }
    }

    /** The last path segment, which names the archive format ({@code .tar.gz}, {@code .zip}, ...). */
    private static String archiveName(URI url) {
        String path = url.getPath() == null ? "" : url.getPath();
        return path.substring(path.lastIndexOf('/') + 1);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is a required JDK algorithm", e);
        }
    }
}
