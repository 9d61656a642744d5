package io.jenkins.plugins.copilotautopilot.core.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliLocatorTest {
    private final CliLocator linux = new CliLocator("Linux", "amd64");
    @TempDir
    Path dir;

    private Path executable(Path file, String content) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    /** The layout of {@code npm install --prefix DIR @github/copilot}. */
    private Path npmInstall() throws IOException {
        Path github = dir.resolve("node_modules/@github");
        executable(github.resolve("copilot/npm-loader.js"), "#!/usr/bin/env node\n");
        Path binary = executable(github.resolve("copilot-linux-x64/copilot"), "\u007fELF");
        Files.writeString(github.resolve("copilot-linux-x64/package.json"), "{\"name\":\"@github/copilot-linux-x64\",\"version\":\"1.0.102\"}");
        Files.createDirectories(dir.resolve("node_modules/.bin"));
        Files.createSymbolicLink(dir.resolve("node_modules/.bin/copilot"), github.resolve("copilot/npm-loader.js"));
        return binary;
    }

    @Test
    void anInstallFolderResolvesToTheNativeBinary() throws Exception {
        Path binary = npmInstall();
        CliExecutable found = linux.locate(dir.toString(), null, "X");
        assertThat(found.path()).isEqualTo(binary.toString());
        assertThat(found.version()).isEqualTo("1.0.102");
    }

    @Test
    void theNpmLoaderResolvesToTheNativeBinaryNotToItself() throws Exception {
        Path binary = npmInstall();
        assertThat(linux.locate(dir.resolve("node_modules/.bin/copilot").toString(), null, "X").path()).isEqualTo(binary.toString());
        // found on the PATH, as a global npm install puts it there
        String path = "/nonexistent:" + dir.resolve("node_modules/.bin");
        assertThat(linux.locate(null, path, "X").path()).isEqualTo(binary.toString());
    }

    @Test
    void aPlainExecutableIsUsedAsIs() throws Exception {
        Path binary = executable(dir.resolve("bin/copilot"), "\u007fELF");
        assertThat(linux.locate(binary.toString(), null, "X")).isEqualTo(new CliExecutable(binary.toString(), null));
        assertThat(linux.locate(dir.toString(), null, "X").path()).isEqualTo(binary.toString());
    }

    @Test
    void missingCliSaysWhatToSet() {
        assertThatThrownBy(() -> linux.locate(dir.resolve("nope").toString(), null, "--copilot or COPILOT_CLI"))
                .isInstanceOf(CliNotFoundException.class)
                .hasMessageContaining("No Copilot CLI at '" + dir.resolve("nope") + "' (no such file)")
                .hasMessageContaining("Set --copilot or COPILOT_CLI to the Copilot CLI executable");
        assertThatThrownBy(() -> linux.locate(null, "/nonexistent", "copilotPath"))
                .isInstanceOf(CliNotFoundException.class)
                .hasMessage("The Copilot CLI was not found on the PATH. Install it (npm install -g @github/copilot@1.0.102)"
                        + " or set copilotPath to the Copilot CLI executable or its npm install folder.");
    }

    @Test
    void aLoaderWithoutItsPlatformPackageIsNotACli() throws Exception {
        executable(dir.resolve("node_modules/@github/copilot/npm-loader.js"), "#!/usr/bin/env node\n");
        assertThatThrownBy(() -> linux.locate(dir.resolve("node_modules/@github/copilot/npm-loader.js").toString(), null, "X"))
                .isInstanceOf(CliNotFoundException.class);
    }

    @Test
    void aNonExecutableFileIsNotACli() throws Exception {
        Path file = dir.resolve("copilot");
        Files.writeString(file, "data");
        assertThatThrownBy(() -> linux.locate(file.toString(), null, "X")).isInstanceOf(CliNotFoundException.class)
                .hasMessageContaining("neither an executable nor an npm install folder");
    }

    @Test
    void platformPackagesPerMachine() {
        assertThat(linux.platformPackages()).containsExactly("linux-x64", "linuxmusl-x64");
        assertThat(new CliLocator("Linux", "aarch64").platformPackages()).containsExactly("linux-arm64", "linuxmusl-arm64");
        assertThat(new CliLocator("Mac OS X", "aarch64").platformPackages()).containsExactly("darwin-arm64");
        assertThat(new CliLocator("Windows 11", "amd64").platformPackages()).containsExactly("win32-x64");
        assertThat(new CliLocator("Linux", "s390x").platformPackages()).isEmpty();
    }
}
