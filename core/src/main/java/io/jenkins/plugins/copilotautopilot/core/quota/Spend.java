package io.jenkins.plugins.copilotautopilot.core.quota;

/** Tokens (in and out) and premium requests, as the CLI's usage records count them. */
public record Spend(long tokens, double premiumRequests) {
    public static final Spend NONE = new Spend(0, 0);

    public Spend plus(Spend other) {
        return new Spend(tokens + other.tokens, premiumRequests + other.premiumRequests);
    }

    public Spend minus(Spend other) {
        return new Spend(tokens - other.tokens, premiumRequests - other.premiumRequests);
    }

    public double of(Quota.Metric metric) {
        return metric == Quota.Metric.TOKENS ? tokens : premiumRequests;
    }
}
