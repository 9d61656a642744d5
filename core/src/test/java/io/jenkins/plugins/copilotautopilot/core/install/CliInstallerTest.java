package io.jenkins.plugins.copilotautopilot.core.install;

import io.jenkins.plugins.copilotautopilot.core.command.Platform;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.testing.ArchiveWriter;
import io.jenkins.plugins.copilotautopilot.core.testing.FileServer;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Downloads real archives from a server on 127.0.0.1 and installs them the way a Jenkins agent would. */
@Timeout(60)
class CliInstallerTest {
    private static final String TEMPLATE_PATH = "/releases/v{version}/copilot-{platform}.{ext}";

    @TempDir
    Path tools;

    private FileServer server;
    private Platform platform;
    private final List<String> log = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startServer() throws Exception {
        server = FileServer.start();
        platform = Platform.current();
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    private String path(String version) {
        return "/releases/v" + version + "/copilot-" + platform.id() + ".tar.gz";
    }

    private CliRelease release(String version, String sha256) {
        return new CliRelease(version, server.baseUrl() + TEMPLATE_PATH, sha256);
    }

    private CliExecutable install(Path home, CliRelease release) throws Exception {
        return new CliInstaller(log::add).install(home, platform, release);
    }

    private static byte[] cliArchive(String version) throws IOException {
        return new ArchiveWriter()
                .file("copilot", 0755, ArchiveWriter.script("copilot " + version))
                .file("LICENSE.md", 0644, "licence text")
                .tarGz();
    }

    private static String run(CliExecutable cli) throws Exception {
        Process p = new ProcessBuilder(cli.path()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        p.waitFor();
        return out;
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    @Test
    void installsTheReleaseOnceAndReusesIt() throws Exception {
        byte[] archive = cliArchive("1.0.102");
        server.serve(path("1.0.102"), archive);
        Path home = tools.resolve("copilot-1.0.102");

        CliExecutable cli = install(home, release("1.0.102", null));

        assertThat(Path.of(cli.path())).isEqualTo(home.resolve("copilot"));
        assertThat(Files.isExecutable(Path.of(cli.path()))).isTrue();
        assertThat(run(cli)).isEqualTo("copilot 1.0.102");
        assertThat(Files.readString(home.resolve(CliInstaller.MARKER)))
                .contains("version=1.0.102").contains("sha256=" + sha256(archive)).contains("platform=" + platform.id());
        assertThat(log).anySatisfy(l -> assertThat(l).startsWith("Installing Copilot CLI 1.0.102 for " + platform.id()));
        assertThat(log).anySatisfy(l -> assertThat(l).contains("SHA-256 " + sha256(archive)));

        log.clear();
        CliExecutable again = install(home, release("1.0.102", null));
        assertThat(again).isEqualTo(cli);
        assertThat(server.hits(path("1.0.102"))).isEqualTo(1);
        assertThat(log).containsExactly("Copilot CLI 1.0.102 is already installed in " + home + ".");
    }

    @Test
    void anInstallWithoutTheMarkerOrTheBinaryIsRepeated() throws Exception {
        server.serve(path("1.0.102"), cliArchive("1.0.102"));
        Path home = tools.resolve("cli");
        install(home, release("1.0.102", null));
        Files.delete(home.resolve("copilot"));

        CliExecutable cli = install(home, release("1.0.102", null));

        assertThat(run(cli)).isEqualTo("copilot 1.0.102");
        assertThat(server.hits(path("1.0.102"))).isEqualTo(2);
    }

    @Test
    void aNewVersionReplacesTheOldOne() throws Exception {
        server.serve(path("1.0.101"), new ArchiveWriter()
                .file("copilot", 0755, ArchiveWriter.script("copilot 1.0.101"))
                .file("only-in-101.txt", 0644, "old").tarGz());
        server.serve(path("1.0.102"), cliArchive("1.0.102"));
        Path home = tools.resolve("cli");
        install(home, release("1.0.101", null));

        CliExecutable cli = install(home, release("1.0.102", null));

        assertThat(run(cli)).isEqualTo("copilot 1.0.102");
        assertThat(home.resolve("only-in-101.txt")).doesNotExist();
        assertThat(Files.readString(home.resolve(CliInstaller.MARKER))).contains("version=1.0.102");
    }

    @Test
    void aChecksumMismatchInstallsNothingAndKeepsThePreviousVersion() throws Exception {
        byte[] good = cliArchive("1.0.101");
        byte[] tampered = cliArchive("1.0.102");
        server.serve(path("1.0.101"), good);
        server.serve(path("1.0.102"), tampered);
        Path home = tools.resolve("cli");
        install(home, release("1.0.101", sha256(good)));
        String expected = "0".repeat(64);

        assertThatThrownBy(() -> install(home, release("1.0.102", expected)))
                .isInstanceOf(CliInstallException.class)
                .hasMessageContaining("has SHA-256 " + sha256(tampered))
                .hasMessageContaining("not the expected " + expected)
                .hasMessageContaining("Nothing was installed");

        assertThat(run(new CliExecutable(home.resolve("copilot").toString(), null))).isEqualTo("copilot 1.0.101");
        assertThat(Files.readString(home.resolve(CliInstaller.MARKER))).contains("version=1.0.101");
        try (var left = Files.list(tools)) {
            assertThat(left.map(p -> p.getFileName().toString())).as("no lock, download or staging left").containsExactly("cli");
        }
    }

    @Test
    void aChecksumMismatchUnpacksNothingNotEvenIntoStaging() throws Exception {
        server.serve(path("1.0.102"), cliArchive("1.0.102"));
        Path home = tools.resolve("cli");
        List<String> whenTheDownloadEnded = new CopyOnWriteArrayList<>();
        Downloads watching = new Downloads() {
            @Override
            public InputStream open(URI uri) throws IOException, InterruptedException {
                return new FilterInputStream(super.open(uri)) {
                    @Override
                    public void close() throws IOException {
                        try (Stream<Path> all = Files.walk(tools)) {
                            all.filter(p -> !p.equals(tools)).forEach(p -> whenTheDownloadEnded.add(tools.relativize(p).toString()));
                        }
                        super.close();
                    }
                };
            }
        };

        assertThatThrownBy(() -> new CliInstaller(watching, log::add).install(home, platform, release("1.0.102", "0".repeat(64))))
                .isInstanceOf(CliInstallException.class).hasMessageContaining("Nothing was installed");

        assertThat(whenTheDownloadEnded).as("what existed when the download ended").isNotEmpty()
                .allMatch(p -> p.equals("cli.lock") || p.startsWith(".cli.download-"));
        try (Stream<Path> left = Files.walk(tools)) {
            assertThat(left.filter(p -> !p.equals(tools))).as("nothing left, not even a lock file").isEmpty();
        }
    }

    @Test
    void aTarWithAWrongHeaderChecksumIsRefused() throws Exception {
        server.serve(path("1.0.102"), new ArchiveWriter()
                .file("copilot", 0755, ArchiveWriter.script("copilot 1.0.102"))
                .corruptChecksums()
                .tarGz());

        assertThatThrownBy(() -> install(tools.resolve("cli"), release("1.0.102", null)))
                .isInstanceOf(CliInstallException.class)
                .hasMessageContaining("Could not unpack the Copilot CLI archive from " + server.baseUrl() + path("1.0.102"))
                .hasMessageContaining("a tar header checksum does not match (entry 'copilot'): the archive is corrupt")
                .hasMessageContaining("Nothing was installed");
        assertThat(tools.resolve("cli")).doesNotExist();
        try (var left = Files.list(tools)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void unpacksPaxLongNamesAndBase256Sizes() throws Exception {
        String longName = "package/" + "a-folder-with-a-long-name/".repeat(5) + "notice-\u00fcn\u00efcode.txt";
        assertThat(longName.length()).isGreaterThan(100);
        server.serve(path("1.0.102"), new ArchiveWriter()
                .file("copilot", 0755, ArchiveWriter.script("copilot 1.0.102"))
                .paxFile(longName, 0644, "the long-named file")
                .tarGz());
        Path home = tools.resolve("cli");

        assertThat(run(install(home, release("1.0.102", null)))).isEqualTo("copilot 1.0.102");
        assertThat(Files.readString(home.resolve(longName))).isEqualTo("the long-named file");
        assertThat(home.resolve("long-name-truncated")).doesNotExist();

        server.serve(path("1.0.103"), new ArchiveWriter()
                .base256Sizes()
                .file("copilot", 0755, ArchiveWriter.script("copilot 1.0.103"))
                .tarGz());
        assertThat(run(install(home, release("1.0.103", null)))).isEqualTo("copilot 1.0.103");
    }

    @Test
    void aMatchingChecksumIsAcceptedAndAChangedOneForcesANewDownload() throws Exception {
        byte[] archive = cliArchive("1.0.102");
        server.serve(path("1.0.102"), archive);
        Path home = tools.resolve("cli");
        install(home, release("1.0.102", null));

        install(home, release("1.0.102", sha256(archive).toUpperCase()));
        assertThat(server.hits(path("1.0.102"))).isEqualTo(1);

        assertThatThrownBy(() -> install(home, release("1.0.102", "f".repeat(64))))
                .hasMessageContaining("not the expected " + "f".repeat(64));
        assertThat(server.hits(path("1.0.102"))).isEqualTo(2);
    }

    @Test
    void neverReplacesAFolderItDidNotInstall() throws Exception {
        server.serve(path("1.0.102"), cliArchive("1.0.102"));
        Path home = Files.createDirectories(tools.resolve("usr-local-bin"));
        Files.writeString(home.resolve("git"), "someone else's tool");

        assertThatThrownBy(() -> install(home, release("1.0.102", null)))
                .isInstanceOf(CliInstallException.class)
                .hasMessageContaining("already holds files that were not installed here");
        assertThat(Files.readString(home.resolve("git"))).isEqualTo("someone else's tool");
        assertThat(server.hits(path("1.0.102"))).isZero();

        Path empty = Files.createDirectories(tools.resolve("empty"));
        assertThat(run(install(empty, release("1.0.102", null)))).isEqualTo("copilot 1.0.102");
    }

    @Test
    void followsRedirectsAsGitHubReleaseDownloadsNeed() throws Exception {
        server.serve("/objects/abc123", cliArchive("1.0.102"));
        server.redirect(path("1.0.102"), server.baseUrl() + "/objects/abc123");

        CliExecutable cli = install(tools.resolve("cli"), release("1.0.102", null));

        assertThat(run(cli)).isEqualTo("copilot 1.0.102");
        assertThat(server.hits("/objects/abc123")).isEqualTo(1);
    }

    @Test
    void aMissingReleaseSaysWhatToCheck() {
        assertThatThrownBy(() -> install(tools.resolve("cli"), release("9.9.9", null)))
                .isInstanceOf(CliInstallException.class)
                .hasMessageContaining("/releases/v9.9.9/copilot-" + platform.id() + ".tar.gz failed: HTTP 404")
                .hasMessageContaining("Check the version and the download URL template");
        assertThat(tools.resolve("cli")).doesNotExist();
    }

    @Test
    void anUnreachableServerSaysHowToInstallOffline() throws Exception {
        int port;
        try (var socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        CliRelease release = new CliRelease("1.0.102", "http://127.0.0.1:" + port + TEMPLATE_PATH, null);
        assertThatThrownBy(() -> install(tools.resolve("cli"), release))
                .isInstanceOf(CliInstallException.class)
                .hasMessageContaining("Cannot download the Copilot CLI from http://127.0.0.1:" + port)
                .hasMessageContaining("set the download URL template to a mirror or a file:// path");
    }

    @Test
    void unpacksAnNpmPlatformPackageTarball() throws Exception {
        server.serve("/npm/copilot-" + platform.id() + "-1.0.102.tgz", new ArchiveWriter()
                .file("package/package.json", 0644, "{\"name\":\"@github/copilot-" + platform.id() + "\",\"version\":\"1.0.102\"}")
                .file("package/copilot", 0755, ArchiveWriter.script("copilot from npm"))
                .tarGz());
        CliRelease release = new CliRelease("1.0.102", server.baseUrl() + "/npm/copilot-{platform}-{version}.tgz", null);

        CliExecutable cli = install(tools.resolve("cli"), release);

        assertThat(Path.of(cli.path())).isEqualTo(tools.resolve("cli/package/copilot"));
        assertThat(cli.version()).isEqualTo("1.0.102");
        assertThat(run(cli)).isEqualTo("copilot from npm");
    }

    @Test
    void unpacksAZipArchive() throws Exception {
        server.serve("/zip/copilot.zip", new ArchiveWriter()
                .directory("bin")
                .file("bin/copilot", 0755, ArchiveWriter.script("copilot from zip"))
                .zip());
        CliRelease release = new CliRelease("1.0.102", server.baseUrl() + "/zip/copilot.zip", null);

        CliExecutable cli = install(tools.resolve("cli"), release);

        assertThat(run(cli)).isEqualTo("copilot from zip");
    }

    @Test
    void installsFromAFileShare() throws Exception {
        Path share = Files.createDirectories(tools.resolve("share"));
        Files.write(share.resolve("copilot-1.0.102-" + platform.id() + ".tar.gz"), cliArchive("1.0.102"));
        CliRelease release = new CliRelease("1.0.102", share.toUri() + "copilot-{version}-{platform}.tar.gz", null);

        assertThat(run(install(tools.resolve("cli"), release))).isEqualTo("copilot 1.0.102");
        assertThatThrownBy(() -> install(tools.resolve("cli2"), new CliRelease("1.0.103", release.urlTemplate(), null)))
                .isInstanceOf(CliInstallException.class)
                .hasMessageContaining("There is no file " + share.resolve("copilot-1.0.103-" + platform.id() + ".tar.gz"));
    }

    @Test
    void refusesEntriesThatWouldLeaveTheInstallFolderAndSkipsLinks() throws Exception {
        server.serve(path("1.0.102"), new ArchiveWriter()
                .file("copilot", 0755, ArchiveWriter.script("copilot"))
                .file("../escaped.txt", 0644, "outside")
                .tarGz());

        assertThatThrownBy(() -> install(tools.resolve("cli"), release("1.0.102", null)))
                .isInstanceOf(CliInstallException.class)
                .hasMessageContaining("Refusing archive entry outside the install folder: ../escaped.txt");
        assertThat(tools.resolve("escaped.txt")).doesNotExist();
        assertThat(tools.resolve("cli")).doesNotExist();

        server.serve(path("1.0.103"), new ArchiveWriter()
                .symlink("passwd")
                .file("copilot", 0755, ArchiveWriter.script("copilot"))
                .tarGz());
        install(tools.resolve("cli"), release("1.0.103", null));
        assertThat(tools.resolve("cli/passwd")).doesNotExist();
    }

    @Test
    void anArchiveWithoutTheCliIsRefused() throws Exception {
        server.serve(path("1.0.102"), new ArchiveWriter().file("README.md", 0644, "not the cli").tarGz());

        assertThatThrownBy(() -> install(tools.resolve("cli"), release("1.0.102", null)))
                .isInstanceOf(CliInstallException.class)
                .hasMessageContaining("holds no Copilot CLI executable")
                .hasMessageContaining("Check the download URL template");
        assertThat(tools.resolve("cli")).doesNotExist();
    }

    @Test
    void aCorruptArchiveIsReportedAndNothingIsInstalled() throws Exception {
        server.serve(path("1.0.102"), "<html>proxy login page</html>".getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> install(tools.resolve("cli"), release("1.0.102", null)))
                .isInstanceOf(CliInstallException.class)
                .hasMessageContaining("Could not unpack the Copilot CLI archive from " + server.baseUrl() + path("1.0.102"))
                .hasMessageContaining("Not in GZIP format")
                .hasMessageContaining("a proxy or mirror may have answered with a web page");
        assertThat(tools.resolve("cli")).doesNotExist();
    }

    @Test
    void concurrentInstallsIntoOneFolderDownloadOnce() throws Exception {
        server.serve(path("1.0.102"), cliArchive("1.0.102"));
        Path home = tools.resolve("cli");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<CliExecutable>> installs = new java.util.ArrayList<>();
            for (int i = 0; i < 4; i++) {
                installs.add(pool.submit(() -> install(home, release("1.0.102", null))));
            }
            for (Future<CliExecutable> f : installs) {
                assertThat(run(f.get())).isEqualTo("copilot 1.0.102");
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(server.hits(path("1.0.102"))).isEqualTo(1);
        assertThat(tools.resolve("cli.lock")).as("the lock file is removed").doesNotExist();
    }
}
