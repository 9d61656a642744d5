package io.jenkins.plugins.copilotautopilot.core.command;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The one line a user gets for each word the launch script's sandbox check ends with (the check itself: SandboxTest). */
class SandboxSupportTest {
    @Test
    void eachWordOfTheLaunchScriptBecomesOneLine() {
        assertThat(SandboxSupport.explain("sandbox-missing slirp4netns iptables"))
                .isEqualTo("sandbox is on, but this machine cannot run the Copilot CLI's sandbox: it needs slirp4netns, iptables on"
                        + " the PATH (on Linux: bubblewrap 0.5.0+, slirp4netns, util-linux 2.35+, iproute2 and iptables). Install it, run the"
                        + " step on a node that has it, or turn sandbox off.");
        assertThat(SandboxSupport.explain("sandbox-tun")).contains("read and write access to /dev/net/tun")
                .endsWith("Allow it, run the step on a node where it works, or turn sandbox off.");
        assertThat(SandboxSupport.explain("sandbox-namespaces bwrap: No permissions to create new namespace"))
                .contains("bubblewrap cannot create namespaces here (bwrap: No permissions to create new namespace)")
                .contains("--security-opt seccomp=unconfined --security-opt systempaths=unconfined");
        assertThat(SandboxSupport.explain("sandbox-unsupported FreeBSD")).contains("on Linux and macOS only, this is FreeBSD");
        assertThat(SandboxSupport.explain("cannot enter the working directory /x")).isEqualTo("cannot enter the working directory /x");
        assertThat(SandboxSupport.explain(null)).isNull();
    }
}
