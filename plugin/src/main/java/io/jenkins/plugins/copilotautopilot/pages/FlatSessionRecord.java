package io.jenkins.plugins.copilotautopilot.pages;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Objects;

/**
 * The flat form in which versions before the result's parts saved a session in {@code build.xml}: one field per number
 * and text. XStream fills these fields from such a build (boxed, so that a missing one is null, and a record of the
 * current form writes none of them); {@link SessionRecord} then makes its parts of them once, when it is read, and
 * keeps none. Records of still older versions lack some of the fields: they become 0, null or empty.
 */
abstract class FlatSessionRecord implements Serializable {
    private static final long serialVersionUID = 1L;

    @Deprecated private String outcome;
    @Deprecated private String reason;
    @Deprecated private String summary;
    @Deprecated private String blocker;
    @Deprecated private FailureRecord failure;
    @Deprecated private Integer exitCode;
    @Deprecated private Long durationMillis;
    @Deprecated private String sessionId;
    @Deprecated private String model;

    @Deprecated private Integer turns;
    @Deprecated private Integer toolCalls;
    @Deprecated private Integer failedToolCalls;
    @Deprecated private Integer deniedToolCalls;
    @Deprecated private Integer policyDeniedToolCalls;
    @Deprecated private Integer deniedFetches;
    @Deprecated private ArrayList<String> deniedUrls;
    @Deprecated private Integer nudges;

    @Deprecated private Double premiumRequests;
    @Deprecated private Double aiCredits;
    @Deprecated private String aiCreditsStatus;
    @Deprecated private Long inputTokens;
    @Deprecated private Long outputTokens;
    @Deprecated private Long cacheReadTokens;

    @Deprecated private Long linesAdded;
    @Deprecated private Long linesRemoved;
    @Deprecated private Integer filesModified;
    @Deprecated private ArrayList<ChangedFileRecord> changedFiles;

    @Deprecated private Boolean verified;
    @Deprecated private Integer verifyRounds;
    @Deprecated private Integer verifyExitCode;

    @Deprecated private String output;
    @Deprecated private Integer outputRounds;
    @Deprecated private ArrayList<FindingRecord> findings;

    final EndingRecord flatEnding() {
        return EndingRecord.flat(outcome, reason, summary, blocker, failure, exitCode, orZero(durationMillis), sessionId, model);
    }

    final ActivityRecord flatActivity() {
        return ActivityRecord.flat(orZero(turns), orZero(toolCalls), orZero(failedToolCalls), orZero(deniedToolCalls),
                orZero(policyDeniedToolCalls), orZero(deniedFetches), deniedUrls, orZero(nudges));
    }

    final ModelUsageRecord flatUsage() {
        return ModelUsageRecord.flat(premiumRequests, aiCredits, aiCreditsStatus, inputTokens, outputTokens, cacheReadTokens);
    }

    final ChangesRecord flatChanges() {
        return ChangesRecord.flat(orZero(linesAdded), orZero(linesRemoved), orZero(filesModified), changedFiles);
    }

    final VerificationRecord flatVerification() {
        return VerificationRecord.flat(verified, orZero(verifyRounds), verifyExitCode);
    }

    final AnswerRecord flatAnswer() {
        return AnswerRecord.flat(output, orZero(outputRounds), findings);
    }

    private static int orZero(Integer value) {
        return Objects.requireNonNullElse(value, 0);
    }

    private static long orZero(Long value) {
        return Objects.requireNonNullElse(value, 0L);
    }
}
