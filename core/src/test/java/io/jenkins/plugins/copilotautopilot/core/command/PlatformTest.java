package io.jenkins.plugins.copilotautopilot.core.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PlatformTest {

    @Test
    void namesMachinesAsTheCliReleasesDo() throws Exception {
        assertThat(Platform.of("Linux", "amd64", false).id()).isEqualTo("linux-x64");
        assertThat(Platform.of("Linux", "aarch64", false).id()).isEqualTo("linux-arm64");
        assertThat(Platform.of("Linux", "amd64", true).id()).isEqualTo("linuxmusl-x64");
        assertThat(Platform.of("Mac OS X", "aarch64", false).id()).isEqualTo("darwin-arm64");
        assertThat(Platform.of("Mac OS X", "x86_64", false).id()).isEqualTo("darwin-x64");
        assertThat(Platform.of("Windows Server 2022", "amd64", false).id()).isEqualTo("win32-x64");
        assertThat(Platform.of("Windows 11", "amd64", false).executableName()).isEqualTo("copilot.exe");
        assertThat(Platform.of("Linux", "amd64", false).executableName()).isEqualTo("copilot");
    }

    @Test
    void refusesMachinesTheCliIsNotBuiltFor() {
        assertThatThrownBy(() -> Platform.of("Linux", "s390x", false))
                .isInstanceOf(Platform.UnsupportedPlatformException.class)
                .hasMessageContaining("Linux on s390x")
                .hasMessageContaining("x64 and arm64");
        assertThatThrownBy(() -> Platform.of("FreeBSD", "amd64", false))
                .hasMessageContaining("FreeBSD")
                .hasMessageContaining("Linux, macOS and Windows");
    }

    @Test
    void thisMachineIsSupported() throws Exception {
        assertThat(Platform.current().id()).matches("(linux|linuxmusl|darwin|win32)-(x64|arm64)");
    }
}
