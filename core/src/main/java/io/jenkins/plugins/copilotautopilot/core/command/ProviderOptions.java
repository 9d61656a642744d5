package io.jenkins.plugins.copilotautopilot.core.command;

import java.util.Objects;

/**
 * An own model provider ("bring your own key"): an OpenAI-compatible, Azure or Anthropic endpoint used
 * instead of GitHub-hosted models. The API key is a secret: it only ever goes into the CLI's
 * environment and is masked everywhere.
 */
public final class ProviderOptions {
    private final String baseUrl;
    private final String type;
    private final String apiKey;
    private final String wireApi;
    private final boolean offline;

    /**
     * @param baseUrl the endpoint, e.g. {@code http://127.0.0.1:11434/v1}
     * @param type    {@code openai} (also for Ollama, vLLM...), {@code azure} or {@code anthropic}; null for the CLI's default
     * @param apiKey  the API key, or null when the provider needs none
     * @param wireApi {@code completions} or {@code responses}; null for the CLI's default
     * @param offline forbid every other network use of the CLI (GitHub auth, telemetry, updates)
     */
    public ProviderOptions(String baseUrl, String type, String apiKey, String wireApi, boolean offline) {
        this.baseUrl = baseUrl;
        this.type = blankToNull(type);
        this.apiKey = blankToNull(apiKey);
        this.wireApi = blankToNull(wireApi);
        this.offline = offline;
    }

    public String baseUrl() {
        return baseUrl;
    }

    public String type() {
        return type;
    }

    public String apiKey() {
        return apiKey;
    }

    public String wireApi() {
        return wireApi;
    }

    public boolean offline() {
        return offline;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProviderOptions p && Objects.equals(baseUrl, p.baseUrl) && Objects.equals(type, p.type)
                && Objects.equals(apiKey, p.apiKey) && Objects.equals(wireApi, p.wireApi) && offline == p.offline;
    }

    @Override
    public int hashCode() {
        return Objects.hash(baseUrl, type, wireApi, offline);
    }

    @Override
    public String toString() {
        return "ProviderOptions[baseUrl=" + baseUrl + ", type=" + type + ", apiKey=" + (apiKey == null ? "none" : "****")
                + ", wireApi=" + wireApi + ", offline=" + offline + "]";
    }
}
