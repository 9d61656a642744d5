package io.jenkins.plugins.copilotautopilot.pages;

import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.Extension;
import hudson.model.Action;
import hudson.model.InvisibleAction;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.model.listeners.RunListener;
import java.util.Collection;
import java.util.List;
import jenkins.model.RunAction2;
import jenkins.tasks.SimpleBuildStep;

/**
 * Keeps the Copilot trend on the job page after builds that ran no Copilot session. Jenkins shows the project
 * actions of the last successful build's {@link SimpleBuildStep.LastBuildAction}s; a build without a session has
 * none of ours, so when it completes after one that had a session (or a carrier), it gets this invisible marker,
 * counting the builds since the last session. After {@value #MAX_BUILDS} builds without a session the trend goes.
 * The check looks at the previous completed build only, once per completed build, never while pages render.
 */
public final class CopilotAutopilotTrendCarrier extends InvisibleAction implements SimpleBuildStep.LastBuildAction, RunAction2 {
    static final int MAX_BUILDS = CopilotAutopilotProjectAction.BUILDS;

    private final int buildsSinceSession;
    private transient Run<?, ?> run;

    CopilotAutopilotTrendCarrier(int buildsSinceSession) {
        this.buildsSinceSession = buildsSinceSession;
    }

    int getBuildsSinceSession() {
        return buildsSinceSession;
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
    public Collection<? extends Action> getProjectActions() {
        return run == null ? List.of() : List.of(new CopilotAutopilotProjectAction(run.getParent()));
    }

    /** How many builds back the last session is, seen from the build after {@code previous}; 0 for none near. */
    static int distanceAfter(Run<?, ?> previous) {
        if (previous == null) {
            return 0;
        }
        CopilotAutopilotRunAction sessions = previous.getAction(CopilotAutopilotRunAction.class);
        if (sessions != null && sessions.hasSessions()) {
            return 1;
        }
        CopilotAutopilotTrendCarrier carrier = previous.getAction(CopilotAutopilotTrendCarrier.class);
        return carrier == null ? 0 : carrier.buildsSinceSession + 1;
    }

    /** Marks completed builds without a session that follow one with a session. */
    @Extension
    public static final class Marker extends RunListener<Run<?, ?>> {
        @Override
        public void onCompleted(Run<?, ?> run, @NonNull TaskListener listener) {
            CopilotAutopilotRunAction own = run.getAction(CopilotAutopilotRunAction.class);
            if (own != null && own.hasSessions() || run.getAction(CopilotAutopilotTrendCarrier.class) != null) {
                return;
            }
            int distance = distanceAfter(run.getPreviousCompletedBuild());
            if (distance > 0 && distance <= MAX_BUILDS) {
                run.addAction(new CopilotAutopilotTrendCarrier(distance)); // the build is saved after its listeners
            }
        }
    }
}
