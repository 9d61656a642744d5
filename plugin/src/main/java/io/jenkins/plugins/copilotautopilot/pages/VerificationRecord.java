package io.jenkins.plugins.copilotautopilot.pages;

import io.jenkins.plugins.copilotautopilot.core.result.Verification;
import java.io.Serializable;
import org.kohsuke.stapler.export.Exported;
import org.kohsuke.stapler.export.ExportedBean;

/** The acceptance check ({@code verify}) as the session ran it, as a build keeps it in {@code build.xml} ({@link Verification}). */
@ExportedBean(defaultVisibility = 4)
public final class VerificationRecord implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Whether it passed last; null without one (or when the session ended before it judged). */
    private final Boolean verified;
    private final int rounds;
    private final Integer exitCode;

    VerificationRecord(Verification v) {
        this(v.verified(), v.rounds(), v.exitCode());
    }

    /** As a version before the parts saved it ({@link FlatSessionRecord}): what that form lacks is null or 0. */
    static VerificationRecord flat(Boolean verified, int rounds, Integer exitCode) {
        return new VerificationRecord(verified, rounds, exitCode);
    }

    private VerificationRecord(Boolean verified, int rounds, Integer exitCode) {
        this.verified = verified;
        this.rounds = rounds;
        this.exitCode = exitCode;
    }

    @Exported
    public Boolean getVerified() {
        return verified;
    }

    /** How often it ran. */
    @Exported
    public int getRounds() {
        return rounds;
    }

    /** Its last exit code, or null. */
    @Exported
    public Integer getExitCode() {
        return exitCode;
    }
}
