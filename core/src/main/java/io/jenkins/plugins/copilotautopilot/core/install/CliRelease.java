package io.jenkins.plugins.copilotautopilot.core.install;

import io.jenkins.plugins.copilotautopilot.core.command.Platform;
import io.jenkins.plugins.copilotautopilot.core.command.CliLocator;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Which Copilot CLI to install and where to download it from.
 *
 * <p>The URL template may use {@code {version}}, {@code {platform}} ({@code linux-x64}, {@code darwin-arm64},
 * {@code win32-x64}, ...) and {@code {ext}} ({@code zip} on Windows, {@code tar.gz} elsewhere). The default
 * points at the CLI's GitHub releases; a mirror or an air-gapped file share uses its own template, e.g.
 * {@code https://mirror.example/copilot/{version}/copilot-{platform}.{ext}} or
 * {@code file:///srv/tools/copilot-{version}-{platform}.tar.gz}. An npm platform package tarball
 * ({@code copilot-linux-x64-1.0.102.tgz}, binary under {@code package/}) works as well.
 *
 * @param version     the CLI version, e.g. {@code 1.0.102}
 * @param urlTemplate where to download it; null or blank for {@link #DEFAULT_URL_TEMPLATE}
 * @param sha256      the archive's expected SHA-256 in hex, or null/blank to skip the check
 */
public record CliRelease(String version, String urlTemplate, String sha256) {
    public static final String DEFAULT_URL_TEMPLATE =
            "https://github.com/github/copilot-cli/releases/download/v{version}/copilot-{platform}.{ext}";

    private static final Pattern VERSION = Pattern.compile("[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}");
    private static final Pattern SHA256 = Pattern.compile("[0-9a-fA-F]{64}");

    public CliRelease {
        version = blankToNull(version);
        urlTemplate = blankToNull(urlTemplate);
        sha256 = blankToNull(sha256);
        if (sha256 != null) {
            sha256 = sha256.toLowerCase(Locale.ROOT);
        }
    }

    /** The pinned version from the default location, unchecked. */
    public static CliRelease pinned() {
        return new CliRelease(CliLocator.PINNED_VERSION, null, null);
    }

    public String effectiveUrlTemplate() {
        return urlTemplate == null ? DEFAULT_URL_TEMPLATE : urlTemplate;
    }

    /** Every problem with this release, in words an administrator can act on; empty when it can be installed. */
    public List<String> validate() {
        List<String> problems = new ArrayList<>();
        if (version == null) {
            problems.add("The Copilot CLI version is empty; set it, e.g. " + CliLocator.PINNED_VERSION + ".");
        } else if (!VERSION.matcher(version).matches()) {
            problems.add("'" + version + "' is not a version; use digits, letters, '.', '-', '+' or '_', e.g. "
                    + CliLocator.PINNED_VERSION + ".");
        }
        if (sha256 != null && !SHA256.matcher(sha256).matches()) {
            problems.add("The SHA-256 checksum must be 64 hexadecimal characters (as printed by sha256sum); got "
                    + sha256.length() + " characters.");
        }
        String template = effectiveUrlTemplate();
        String sample = template.replace("{version}", "1").replace("{platform}", "linux-x64").replace("{ext}", "tar.gz");
        try {
            URI uri = new URI(sample);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!List.of("http", "https", "file").contains(scheme)) {
                problems.add("The download URL template must start with https://, http:// or file:// (got '"
                        + Urls.redact(template) + "').");
            } else if (uri.getRawUserInfo() != null) {
                problems.add("The download URL template must not contain a user name or password ('"
                        + Urls.redact(template) + "'); serve the archive from a mirror readable without them,"
                        + " or from a file:// path.");
            } else if (!Archives.isSupported(uri.getPath() == null ? "" : uri.getPath())) {
                problems.add("The download URL template must name a .tar.gz, .tgz, .tar or .zip archive, or end in"
                        + " .{ext} (got '" + Urls.redact(template) + "').");
            }
        } catch (URISyntaxException e) {
            problems.add("The download URL template is not a valid URL: " + Urls.redact(template) + ".");
        }
        return problems;
    }

    /** The download URL for one platform. */
    public URI url(Platform platform) throws CliInstallException {
        List<String> problems = validate();
        if (!problems.isEmpty()) {
            throw new CliInstallException(String.join(" ", problems));
        }
        String ext = "win32".equals(platform.os()) ? "zip" : "tar.gz";
        String url = effectiveUrlTemplate().replace("{version}", version).replace("{platform}", platform.id())
                .replace("{ext}", ext);
        return URI.create(url);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
