package io.jenkins.plugins.copilotautopilot.core.install;

import java.io.IOException;
import java.io.InputStream;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * Opens a download: {@code http(s)://} through the JVM's proxy settings (following redirects, as GitHub
 * release downloads need), or {@code file://} for a file share.
 */
public class Downloads {
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration DOWNLOAD_TIMEOUT = Duration.ofMinutes(30);

    /** The archive's bytes; the caller closes the stream. */
    public InputStream open(URI uri) throws IOException, InterruptedException {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if ("file".equals(scheme)) {
            Path file;
            try {
                file = Path.of(uri);
            } catch (IllegalArgumentException e) {
                throw new CliInstallException("'" + Urls.redact(uri) + "' is not a local file URL (use file:///path/to/archive).");
            }
            try {
                return Files.newInputStream(file);
            } catch (NoSuchFileException e) {
                throw new CliInstallException("There is no file " + file + " to install the Copilot CLI from."
                        + " Check the version and the download URL template.");
            }
        }
        HttpClient.Builder client = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(CONNECT_TIMEOUT);
        ProxySelector proxies = ProxySelector.getDefault();
        if (proxies != null) {
            client.proxy(proxies);
        }
        HttpRequest request;
        try {
            request = HttpRequest.newBuilder(uri).timeout(DOWNLOAD_TIMEOUT).GET().build();
        } catch (IllegalArgumentException e) {
            throw new CliInstallException("Cannot download the Copilot CLI from " + Urls.redact(uri)
                    + ": not a URL this JVM can fetch. Check the download URL template.");
        }
        HttpResponse<InputStream> response;
        try {
            response = client.build().send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new CliInstallException("Cannot download the Copilot CLI from " + Urls.redact(uri) + ": "
                    + describe(e) + ". If this machine has no internet access, set the download URL template to a"
                    + " mirror or a file:// path, or install the CLI with a command.", e);
        }
        if (response.statusCode() != 200) {
            response.body().close();
            throw new CliInstallException("Downloading the Copilot CLI from " + Urls.redact(response.uri())
                    + " failed: HTTP " + response.statusCode() + ". Check the version and the download URL template.");
        }
        return response.body();
    }

    private static String describe(IOException e) {
        String message = e.getMessage();
        String kind = e.getClass().getSimpleName();
        return message == null || message.isBlank() ? kind : kind + ": " + message;
    }
}
