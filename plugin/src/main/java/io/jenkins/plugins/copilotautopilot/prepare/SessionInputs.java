package io.jenkins.plugins.copilotautopilot.prepare;

import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.session.SessionPolicy;
import io.jenkins.plugins.copilotautopilot.trace.BuildTraces;

import hudson.AbortException;
import hudson.EnvVars;
import hudson.FilePath;
import hudson.model.Run;
import hudson.model.TaskListener;
import io.jenkins.plugins.copilotautopilot.core.prepare.Note;
import io.jenkins.plugins.copilotautopilot.core.prepare.SessionPreparation;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Collection;
import java.util.List;
import org.jenkinsci.plugins.workflow.FilePathUtils;

/**
 * What a step asks for, made into what a session runs with by the core's {@link SessionPreparation}, for a build: the
 * administrator's defaults and policy for untrusted change requests, the build's environment, its lookups ({@link
 * BuildLookups}) and the step's words ({@link StepWording}). What the preparation notes is printed; a session it refuses
 * ends the step with one line holding every problem. The secrets are never printed.
 */
final class SessionInputs {
    private SessionInputs() {
    }

    /**
     * @param sensitiveVariables names of build variables whose values are secrets ({@code withCredentials})
     * @throws AbortException for settings or a task that cannot run (the message says what to change)
     */
    static SessionPreparation.Prepared gather(SessionRequest request, Run<?, ?> run, FilePath workspace, EnvVars env,
                                              TaskListener listener, Collection<String> sensitiveVariables)
            throws IOException, InterruptedException {
        SessionPolicy policy = SessionPolicy.get();
        ChangeRequestTrust.Untrusted untrusted = ChangeRequestTrust.of(run, listener);
        SessionPolicy.UntrustedChangeRequests untrustedPolicy = policy.untrustedChangeRequests();
        if (untrusted != null && untrustedPolicy == SessionPolicy.UntrustedChangeRequests.REFUSE) {
            throw new AbortException(Messages.ChangeRequestTrust_Refused(untrusted.name()));
        }
        if (untrusted != null && untrustedPolicy == SessionPolicy.UntrustedChangeRequests.ALLOW) {
            listener.getLogger().println(Messages.ChangeRequestTrust_Allowed(untrusted.name()));
            untrusted = null;
        }
        try {
            SessionPreparation.Prepared prepared = SessionPreparation.prepare(
                    new SessionPreparation.Asked(request.prompt(), request.settings(), policy.defaults()),
                    new SessionPreparation.Situation(env, sensitiveVariables, untrusted == null ? null : untrusted.name(),
                            BuildTraces.exporting()),
                    new BuildLookups(run, workspace, listener, untrusted), new StepWording(workspace.getRemote()));
            print(prepared.notes(), listener.getLogger());
            return prepared;
        } catch (SessionPreparation.Refused e) {
            print(e.notes(), listener.getLogger());
            throw new AbortException(Messages.SessionInputs_InvalidOptions(String.join(" ", e.problems())));
        }
    }

    /** Each note as a line of the build's log. */
    private static void print(List<Note> notes, PrintStream log) {
        for (Note note : notes) {
            log.println(line(note));
        }
    }

    static String line(Note note) {
        if (note instanceof Note.FromDefaults n) {
            return Messages.SessionInputs_FromDefaults(String.join(", ", n.settings()));
        }
        if (note instanceof Note.TaskFromFile n) {
            return n.trustedRevision() ? Messages.SessionInputs_PromptFromTrustedFile(n.file(), n.chars())
                    : Messages.SessionInputs_PromptFromFile(n.file(), n.chars());
        }
        if (note instanceof Note.Restricted n) {
            return Messages.ChangeRequestTrust_Restricted(n.changeRequest(),
                    n.removed().isEmpty() ? "" : "; taken away: " + String.join(", ", n.removed()));
        }
        if (note instanceof Note.ToolSecretUnset n) {
            return Messages.SessionInputs_ToolSecretUnset(n.variable());
        }
        if (note instanceof Note.BuildLogIncluded n) {
            return Messages.SessionInputs_BuildLogIncluded(n.lines(), n.leftOutLines());
        }
        if (note instanceof Note.TokenSource n) {
            return Messages.SessionInputs_TokenSource(n.source());
        }
        if (note instanceof Note.Traced) {
            return Messages.BuildTraces_Traced();
        }
        throw new IllegalArgumentException("no words for " + note);
    }

    static String displayNode(FilePath workspace) {
        String name = FilePathUtils.getNodeName(workspace);
        return name.isEmpty() ? "the built-in node" : name;
    }
}
