package io.jenkins.plugins.copilotautopilot.core.command;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The machine the CLI is installed for, named as the CLI's release assets and npm platform packages name it:
 * {@code linux-x64}, {@code linuxmusl-arm64}, {@code darwin-arm64}, {@code win32-x64}.
 *
 * @param os   {@code linux}, {@code linuxmusl}, {@code darwin} or {@code win32}
 * @param arch {@code x64} or {@code arm64}
 */
public record Platform(String os, String arch) {

    /** This JVM's machine. */
    public static Platform current() throws UnsupportedPlatformException {
        return of(System.getProperty("os.name"), System.getProperty("os.arch"), isMusl());
    }

    /** @throws UnsupportedPlatformException for an OS or CPU the Copilot CLI is not built for */
    public static Platform of(String osName, String osArch, boolean musl) throws UnsupportedPlatformException {
        String name = osName == null ? "" : osName.toLowerCase(Locale.ROOT);
        String cpu = osArch == null ? "" : osArch.toLowerCase(Locale.ROOT);
        String arch = switch (cpu) {
            case "amd64", "x86_64", "x64" -> "x64";
            case "aarch64", "arm64" -> "arm64";
            default -> null;
        };
        String os;
        if (name.startsWith("linux")) {
            os = musl ? "linuxmusl" : "linux";
        } else if (name.startsWith("mac") || name.startsWith("darwin")) {
            os = "darwin";
        } else if (name.startsWith("windows")) {
            os = "win32";
        } else {
            os = null;
        }
        if (os == null || arch == null) {
            throw new UnsupportedPlatformException("The Copilot CLI is not available for " + osName + " on " + osArch
                    + "; it runs on Linux, macOS and Windows, on x64 and arm64.");
        }
        return new Platform(os, arch);
    }

    /** {@code linux-x64} and so on. */
    public String id() {
        return os + "-" + arch;
    }

    /** The executable's file name on this platform. */
    public String executableName() {
        return "win32".equals(os) ? "copilot.exe" : "copilot";
    }

    /** Linux with the musl C library (Alpine): it needs the linuxmusl build. */
    static boolean isMusl() {
        for (String candidate : new String[] {"/lib/ld-musl-x86_64.so.1", "/lib/ld-musl-aarch64.so.1"}) {
            if (Files.exists(Path.of(candidate))) {
                return true;
            }
        }
        return false;
    }

    /** The platform cannot run the Copilot CLI. */
    public static final class UnsupportedPlatformException extends Exception {
        public UnsupportedPlatformException(String message) {
            super(message);
        }
    }
}
