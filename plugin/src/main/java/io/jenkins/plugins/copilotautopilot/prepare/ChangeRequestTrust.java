package io.jenkins.plugins.copilotautopilot.prepare;

import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.agent.TimeLimits;
import io.jenkins.plugins.copilotautopilot.session.SessionPolicy;

import hudson.model.Job;
import hudson.model.Run;
import hudson.model.TaskListener;
import io.jenkins.plugins.copilotautopilot.core.prepare.InlineOrFile;
import java.io.IOException;
import java.io.InputStream;
import jenkins.scm.api.SCMFile;
import jenkins.scm.api.SCMFileSystem;
import jenkins.scm.api.SCMHead;
import jenkins.scm.api.SCMRevision;
import jenkins.scm.api.SCMRevisionAction;
import jenkins.scm.api.SCMSource;
import jenkins.scm.api.mixin.ChangeRequestSCMHead;

/**
 * Whether a build is of a change request whose author the SCM does not trust, the way multibranch's
 * {@code readTrusted} decides it: the build's head is a change request, and the SCM source's trusted revision for the
 * build's revision is another one (the target's). An untrusted change request's files are the author's words: the
 * administrator's policy ({@link SessionPolicy#untrustedChangeRequests()}) says what a session
 * may do there. SCM calls are limited in time.
 */
final class ChangeRequestTrust {
    /** How long the SCM may take to say what is trusted. */
    static final long SCM_TIMEOUT_SECONDS = Long.getLong(ChangeRequestTrust.class.getName() + ".timeoutSeconds", 60);

    /**
     * A change request whose author is not trusted.
     *
     * @param name    the change request as the job names it, e.g. {@code PR-3}
     * @param trusted the revision trusted in its stead, or null when the SCM could not say
     */
    record Untrusted(String name, SCMSource source, SCMHead head, SCMRevision trusted) {
    }

    private ChangeRequestTrust() {
    }

    /** The untrusted change request this build is of, or null (no change request, a trusted author, no SCM API job). */
    static Untrusted of(Run<?, ?> run, TaskListener listener) throws IOException, InterruptedException {
        Job<?, ?> job = run.getParent();
        SCMHead head = SCMHead.HeadByItem.findHead(job);
        if (!(head instanceof ChangeRequestSCMHead)) {
            return null;
        }
        SCMSource source = SCMSource.SourceByItem.findSource(job);
        if (source == null) {
            return new Untrusted(head.getName(), null, head, null); // cannot tell: not trusted
        }
        return TimeLimits.limit(SCM_TIMEOUT_SECONDS, Messages.ChangeRequestTrust_Asking(head.getName()), () -> {
            SCMRevision revision = SCMRevisionAction.getRevision(source, run);
            if (revision == null) {
                revision = source.fetch(head, listener);
            }
            if (revision == null) {
                return new Untrusted(head.getName(), source, head, null);
            }
            SCMRevision trusted = source.getTrustedRevision(revision, listener);
            return trusted.equals(revision) ? null : new Untrusted(head.getName(), source, head, trusted);
        });
    }

    /**
     * The files of the trusted revision, as {@code readTrusted} reads them, for a setting that names one ({@code
     * promptFile}, {@code outputSchema}); one line when one cannot be read.
     */
    static InlineOrFile.Files trustedFiles(Untrusted untrusted, FileWording setting) {
        return (path, maxBytes) -> {
            if (untrusted.source() == null || untrusted.trusted() == null) {
                return new InlineOrFile.Refused(Messages.ChangeRequestTrust_NoTrustedRevision(setting.setting(), path, untrusted.name(),
                        setting.instead()));
            }
            return TimeLimits.limit(SCM_TIMEOUT_SECONDS, Messages.ChangeRequestTrust_Reading(path), () -> {
                try (SCMFileSystem fs = SCMFileSystem.of(untrusted.source(), untrusted.head(), untrusted.trusted())) {
                    if (fs == null) {
                        return new InlineOrFile.Refused(Messages.ChangeRequestTrust_NoFileSystem(setting.setting(), path, untrusted.name(),
                                setting.instead()));
                    }
                    SCMFile file = fs.child(path);
                    if (!file.isFile()) {
                        return new InlineOrFile.Refused(Messages.ChangeRequestTrust_NotInTrusted(setting.setting(), path, untrusted.name(),
                                setting.what()));
                    }
                    try (InputStream in = file.content()) {
                        byte[] bytes = in.readNBytes(maxBytes + 1);
                        return new InlineOrFile.Bytes(bytes, bytes.length);
                    }
                }
            });
        };
    }
}
