package io.jenkins.plugins.copilotautopilot.core.install;

import io.jenkins.plugins.copilotautopilot.core.command.Platform;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CliReleaseTest {
    private static final Platform LINUX = new Platform("linux", "x64");
    private static final Platform WINDOWS = new Platform("win32", "arm64");

    @Test
    void defaultTemplatePointsAtTheGitHubReleaseForThePlatform() throws Exception {
        CliRelease release = new CliRelease("1.0.102", " ", null);
        assertThat(release.validate()).isEmpty();
        assertThat(release.url(LINUX)).hasToString(
                "https://github.com/github/copilot-cli/releases/download/v1.0.102/copilot-linux-x64.tar.gz");
        assertThat(release.url(WINDOWS).toString()).endsWith("/v1.0.102/copilot-win32-arm64.zip");
        assertThat(CliRelease.pinned().version()).isEqualTo("1.0.102");
    }

    @Test
    void mirrorsAndFileSharesUseTheirOwnTemplate() throws Exception {
        assertThat(new CliRelease("1.0.102", "https://mirror.example/copilot/{version}/{platform}.{ext}", null)
                .url(LINUX)).hasToString("https://mirror.example/copilot/1.0.102/linux-x64.tar.gz");
        assertThat(new CliRelease("1.0.102", "file:///srv/tools/copilot-{platform}-{version}.tgz", null)
                .url(LINUX)).hasToString("file:///srv/tools/copilot-linux-x64-1.0.102.tgz");
    }

    @Test
    void checksumIsNormalisedToLowerCase() {
        String upper = "AB".repeat(32);
        assertThat(new CliRelease("1.0.102", null, " " + upper + " ").sha256()).isEqualTo("ab".repeat(32));
    }

    @Test
    void explainsEveryMistake() {
        assertThat(new CliRelease("", null, null).validate()).containsExactly(
                "The Copilot CLI version is empty; set it, e.g. 1.0.102.");
        assertThat(new CliRelease("1.0.102/../../x", null, null).validate().get(0))
                .contains("is not a version");
        assertThat(new CliRelease("1.0.102", null, "abc123").validate().get(0))
                .contains("64 hexadecimal characters").contains("got 6 characters");
        assertThat(new CliRelease("1.0.102", "ftp://host/copilot.tar.gz", null).validate().get(0))
                .contains("must start with https://, http:// or file://");
        assertThat(new CliRelease("1.0.102", "https://host/copilot.exe", null).validate().get(0))
                .contains(".tar.gz, .tgz, .tar or .zip");
        assertThat(new CliRelease("1.0.102", "https://host/a b|{x}.tar.gz", null).validate().get(0))
                .contains("not a valid URL");
    }

    @Test
    void aPasswordInTheTemplateIsRefusedAndNeverRepeated() {
        CliRelease release = new CliRelease("1.0.102", "https://ci:hunter2@mirror.example/c-{platform}.tar.gz", null);
        assertThat(release.validate()).hasSize(1);
        assertThat(release.validate().get(0)).contains("must not contain a user name or password")
                .contains("https://****@mirror.example/").doesNotContain("hunter2");
        assertThatThrownBy(() -> release.url(LINUX)).isInstanceOf(CliInstallException.class)
                .message().doesNotContain("hunter2");
    }

    @Test
    void redactsOnlyTheUserInfo() {
        assertThat(Urls.redact("https://u:p@h.example:8443/a@b?x=@y")).isEqualTo("https://****@h.example:8443/a@b?x=@y");
        assertThat(Urls.redact("https://h.example/a@b")).isEqualTo("https://h.example/a@b");
        assertThat(Urls.redact("file:///srv/x.tgz")).isEqualTo("file:///srv/x.tgz");
    }
}
