package io.jenkins.plugins.copilotautopilot.session;

import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.agent.TimeLimits;

import hudson.AbortException;
import hudson.model.Job;
import hudson.model.Run;
import hudson.model.TaskListener;
import java.io.IOException;
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

    /** {@code path} as the trusted revision has it, as {@code readTrusted} reads it; one line when it cannot be read. */
    static String readTrusted(Untrusted untrusted, String path) throws IOException, InterruptedException {
        if (untrusted.source() == null || untrusted.trusted() == null) {
            throw new AbortException(Messages.ChangeRequestTrust_NoTrustedRevision(path, untrusted.name()));
        }
        return TimeLimits.limit(SCM_TIMEOUT_SECONDS, Messages.ChangeRequestTrust_Reading(path), () -> {
            try (SCMFileSystem fs = SCMFileSystem.of(untrusted.source(), untrusted.head(), untrusted.trusted())) {
                if (fs == null) {
                    throw new AbortException(Messages.ChangeRequestTrust_NoFileSystem(path, untrusted.name()));
                }
                SCMFile file = fs.child(path);
                if (!file.isFile()) {
                    throw new AbortException(Messages.ChangeRequestTrust_NotInTrusted(path, untrusted.name()));
                }
                return file.contentAsString();
            }
        });
    }
}
