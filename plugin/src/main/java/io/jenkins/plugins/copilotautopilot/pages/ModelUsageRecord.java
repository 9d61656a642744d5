package io.jenkins.plugins.copilotautopilot.pages;

import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.core.result.ModelUsage;
import io.jenkins.plugins.copilotautopilot.core.session.AiCredits;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.io.Serializable;
import java.util.Locale;
import java.util.Objects;
import org.kohsuke.stapler.export.Exported;
import org.kohsuke.stapler.export.ExportedBean;

/**
 * What the session's model calls used, as a build keeps it in {@code build.xml} ({@link ModelUsage}); each value null
 * when unknown (no usage records, or a record of a version before it was counted), which is not zero.
 */
@ExportedBean(defaultVisibility = 4)
public final class ModelUsageRecord implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Double premiumRequests;
    /** The AI credits the model calls reported; null when none did. */
    private final Double aiCredits;
    /** complete, partial or unavailable, as the model calls reported credits; null without usage records. */
    private final String aiCreditsStatus;
    private final Long inputTokens;
    private final Long outputTokens;
    private final Long cacheReadTokens;

    ModelUsageRecord(ModelUsage u) {
        this(u.premiumRequests(), u.aiCredits(), u.aiCreditsStatus(), u.inputTokens(), u.outputTokens(), u.cacheReadTokens());
    }

    /** As a version before the parts saved it ({@link FlatSessionRecord}): what that form lacks is null or 0. */
    static ModelUsageRecord flat(Double premiumRequests, Double aiCredits, String aiCreditsStatus, Long inputTokens, Long outputTokens,
                                 Long cacheReadTokens) {
        return new ModelUsageRecord(premiumRequests, aiCredits, aiCreditsStatus, inputTokens, outputTokens, cacheReadTokens);
    }

    private ModelUsageRecord(Double premiumRequests, Double aiCredits, String aiCreditsStatus, Long inputTokens, Long outputTokens,
                             Long cacheReadTokens) {
        this.premiumRequests = premiumRequests;
        this.aiCredits = aiCredits;
        this.aiCreditsStatus = aiCreditsStatus;
        this.inputTokens = inputTokens;
        this.outputTokens = outputTokens;
        this.cacheReadTokens = cacheReadTokens;
    }

    @Exported
    public Double getPremiumRequests() {
        return premiumRequests;
    }

    /** The AI credits GitHub billed for the session's model calls, or null when they reported none (unknown, not 0). */
    @Exported
    public Double getAiCredits() {
        return aiCredits;
    }

    /** {@code complete}, {@code partial} or {@code unavailable}; null without usage records. */
    @Exported
    public String getAiCreditsStatus() {
        return aiCreditsStatus;
    }

    /** Input tokens of the model calls, or null when the CLI recorded no usage. */
    @Exported
    public Long getInputTokens() {
        return inputTokens;
    }

    @Exported
    public Long getOutputTokens() {
        return outputTokens;
    }

    @Exported
    public Long getCacheReadTokens() {
        return cacheReadTokens;
    }

    /** Input and output tokens together, or null without usage records. */
    public Long tokens() {
        return inputTokens == null ? null : inputTokens + Objects.requireNonNullElse(outputTokens, 0L);
    }

    /** {@code 1,234 in / 56 out}, or null without usage records. */
    public String getTokensText() {
        return inputTokens == null ? null : String.format(Locale.ROOT, "%,d in / %,d out", inputTokens,
                Objects.requireNonNullElse(outputTokens, 0L));
    }

    /** As the pages write them: {@code 2.5}, {@code at least 2.5} when some calls reported none, {@code not reported}. */
    public String getAiCreditsText() {
        if (aiCreditsStatus == null) {
            return "?";
        }
        if (aiCredits == null) {
            return Messages.SessionRecord_CreditsNotReported();
        }
        String amount = AiCredits.format(aiCredits);
        return "partial".equals(aiCreditsStatus) ? Messages.SessionRecord_CreditsAtLeast(amount) : amount;
    }

    public String getPremiumRequestsText() {
        return premiumRequests == null ? "?" : Texts.number(premiumRequests);
    }
}
