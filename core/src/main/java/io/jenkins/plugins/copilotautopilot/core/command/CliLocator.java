package io.jenkins.plugins.copilotautopilot.core.command;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the native Copilot CLI binary from what a user configured: the executable itself, the npm
 * loader ({@code node_modules/.bin/copilot}, a global {@code copilot} on the PATH), an npm install
 * folder ({@code npm install --prefix DIR @github/copilot}) or an extracted release or npm package archive.
 */
public final class CliLocator {
    /** The pinned CLI version this project is tested with. */
    public static final String PINNED_VERSION = "1.0.102";
    /** How to install the pinned CLI, for messages. */
    public static final String INSTALL_HINT = "npm install -g @github/copilot@" + PINNED_VERSION;

    private static final Pattern VERSION = Pattern.compile("\"version\"\\s*:\\s*\"([^\"]+)\"");

    private final String osName;
    private final String osArch;

    public CliLocator() {
        this(System.getProperty("os.name"), System.getProperty("os.arch"));
    }

    CliLocator(String osName, String osArch) {
        this.osName = osName;
        this.osArch = osArch;
    }

    /**
     * @param configured the user's setting (file or folder), or null/blank to search the PATH
     * @param pathVariable the PATH to search when nothing is configured
     * @param howToSet     how the user points us at the CLI, for the error message (e.g. "--copilot or COPILOT_CLI")
     */
    public CliExecutable locate(String configured, String pathVariable, String howToSet) throws CliNotFoundException {
        if (configured != null && !configured.isBlank()) {
            Path given;
            try {
                given = Path.of(configured.strip());
            } catch (InvalidPathException e) {
                throw new CliNotFoundException("'" + configured + "' is not a valid path. Set " + howToSet
                        + " to the Copilot CLI executable or to the folder it was installed into with npm.");
            }
            CliExecutable found = resolve(given);
            if (found == null) {
                throw new CliNotFoundException("No Copilot CLI at '" + configured + "'"
                        + (Files.exists(given) ? " (it is neither an executable nor an npm install folder of @github/copilot)" : " (no such file)")
                        + ". Set " + howToSet + " to the Copilot CLI executable or to the folder it was installed into with npm"
                        + " (npm install --prefix DIR @github/copilot@" + PINNED_VERSION + ").");
            }
            return found;
        }
        for (String dir : splitPath(pathVariable)) {
            for (String name : executableNames()) {
                Path candidate;
                try {
                    candidate = Path.of(dir, name);
                } catch (InvalidPathException e) {
                    continue;
                }
                if (Files.isRegularFile(candidate)) {
                    CliExecutable found = resolve(candidate);
                    if (found != null) {
                        return found;
                    }
                }
            }
        }
        throw new CliNotFoundException("The Copilot CLI was not found on the PATH. Install it (" + INSTALL_HINT
                + ") or set " + howToSet + " to the Copilot CLI executable or its npm install folder.");
    }

    private CliExecutable resolve(Path given) {
        if (Files.isDirectory(given)) {
            return resolveFolder(given);
        }
        if (!Files.isRegularFile(given)) {
            return null;
        }
        Path real;
        try {
            real = given.toRealPath();
        } catch (IOException e) {
            return null;
        }
        if (isNpmLoader(real)) {
            return fromLoader(real);
        }
        return Files.isExecutable(real) ? new CliExecutable(real.toString(), versionNextTo(real)) : null;
    }

    private CliExecutable resolveFolder(Path folder) {
        List<Path> candidates = new ArrayList<>();
        for (String platform : platformPackages()) {
            for (String exe : nativeNames()) {
                candidates.add(folder.resolve("node_modules/@github/copilot-" + platform + "/" + exe));
                candidates.add(folder.resolve("node_modules/@github/copilot/node_modules/@github/copilot-" + platform + "/" + exe));
                candidates.add(folder.resolve("lib/node_modules/@github/copilot/node_modules/@github/copilot-" + platform + "/" + exe));
                candidates.add(folder.resolve("lib/node_modules/@github/copilot-" + platform + "/" + exe));
            }
        }
        for (String exe : nativeNames()) {
            candidates.add(folder.resolve(exe));
            candidates.add(folder.resolve("bin").resolve(exe));
            candidates.add(folder.resolve("package").resolve(exe)); // an unpacked npm platform package tarball
        }
        for (Path candidate : candidates) {
            if (Files.isRegularFile(candidate)) {
                CliExecutable found = resolve(candidate);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    /** The npm loader lives in {@code .../@github/copilot/}; the native binary in a platform package beside or below it. */
    private CliExecutable fromLoader(Path loader) {
        Path packageDir = loader.getParent();
        if (packageDir == null) {
            return null;
        }
        for (String platform : platformPackages()) {
            for (String exe : nativeNames()) {
                Path sibling = packageDir.resolveSibling("copilot-" + platform).resolve(exe);
                Path nested = packageDir.resolve("node_modules/@github/copilot-" + platform).resolve(exe);
                for (Path candidate : List.of(sibling, nested)) {
                    if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                        return new CliExecutable(candidate.toAbsolutePath().normalize().toString(), versionNextTo(candidate));
                    }
                }
            }
        }
        return null;
    }

    private static boolean isNpmLoader(Path file) {
        if (file.getFileName().toString().endsWith(".js")) {
            return true;
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(64);
            String first = new String(head, StandardCharsets.ISO_8859_1);
            int eol = first.indexOf('\n');
            String line = eol < 0 ? first : first.substring(0, eol);
            return line.startsWith("#!") && line.contains("node");
        } catch (IOException e) {
            return false;
        }
    }

    /** The version in the {@code package.json} beside the binary (npm platform package), if any. */
    private static String versionNextTo(Path binary) {
        Path manifest = binary.resolveSibling("package.json");
        if (!Files.isRegularFile(manifest)) {
            return null;
        }
        try {
            String json = Files.readString(manifest, StandardCharsets.UTF_8);
            Matcher m = VERSION.matcher(json);
            return m.find() ? m.group(1) : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private boolean isWindows() {
        return osName != null && osName.toLowerCase(Locale.ROOT).startsWith("windows");
    }

    private List<String> executableNames() {
        return isWindows() ? List.of("copilot.exe", "copilot.cmd", "copilot") : List.of("copilot");
    }

    private List<String> nativeNames() {
        return isWindows() ? List.of("copilot.exe") : List.of("copilot");
    }

    /** npm platform package suffixes for this machine, e.g. {@code linux-x64}, then {@code linuxmusl-x64}. */
    List<String> platformPackages() {
        try {
            Platform platform = Platform.of(osName, osArch, false);
            return "linux".equals(platform.os()) ? List.of(platform.id(), "linuxmusl-" + platform.arch()) : List.of(platform.id());
        } catch (Platform.UnsupportedPlatformException e) {
            return List.of(); // no npm package of the CLI exists for this machine
        }
    }

    private static List<String> splitPath(String path) {
        List<String> dirs = new ArrayList<>();
        if (path == null) {
            return dirs;
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (!dir.isBlank()) {
                dirs.add(dir);
            }
        }
        return dirs;
    }
}
