package io.jenkins.plugins.copilotautopilot;

import hudson.model.Run;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import jenkins.model.RunAction2;

/**
 * The Copilot sessions of one build, one {@link SessionRecord} per step invocation (several steps, also in
 * parallel branches, add to the same action). Their journals are files in the build's
 * {@value AutopilotStepRunner#JOURNAL_FOLDER} folder.
 */
public final class CopilotAutopilotRunAction implements RunAction2 {
    private final List<SessionRecord> sessions = new ArrayList<>();
    private transient Run<?, ?> run;

    /** Adds a finished session to the build's action (creating it) and saves the build. */
    static void record(Run<?, ?> run, SessionRecord session) throws IOException {
        synchronized (run) {
            CopilotAutopilotRunAction action = run.getAction(CopilotAutopilotRunAction.class);
            if (action == null) {
                action = new CopilotAutopilotRunAction();
                run.addAction(action);
            }
            synchronized (action.sessions) {
                action.sessions.add(session);
            }
            run.save();
        }
    }

    /** An id for the next Freestyle step invocation in this build: {@code build-step-1}, {@code build-step-2}... */
    static String nextBuildStepId(Run<?, ?> run) {
        CopilotAutopilotRunAction action = run.getAction(CopilotAutopilotRunAction.class);
        return "build-step-" + (action == null ? 1 : action.getSessions().size() + 1);
    }

    public List<SessionRecord> getSessions() {
        synchronized (sessions) {
            return List.copyOf(sessions);
        }
    }

    public Run<?, ?> getRun() {
        return run;
    }

    @Override
    public void onAttached(Run<?, ?> r) {
        this.run = r;
    }

    @Override
    public void onLoad(Run<?, ?> r) {
        this.run = r;
    }

    @Override
    public String getIconFileName() {
        return null;
    }

    @Override
    public String getDisplayName() {
        return Messages.CopilotAutopilotRunAction_DisplayName();
    }

    @Override
    public String getUrlName() {
        return null;
    }
}
