package io.jenkins.plugins.copilotautopilot;

import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.Extension;
import hudson.model.Action;
import hudson.model.Job;
import hudson.model.Run;
import java.util.Collection;
import java.util.List;
import jenkins.model.TransientActionFactory;

/** Adds the trend to jobs whose last completed build ran a Copilot session (cheap: one build is looked at). */
@Extension
public final class CopilotAutopilotProjectActionFactory extends TransientActionFactory<Job> {
    @Override
    public Class<Job> type() {
        return Job.class;
    }

    @NonNull
    @Override
    public Collection<? extends Action> createFor(@NonNull Job target) {
        Run<?, ?> last = target.getLastCompletedBuild();
        if (last == null || last.getAction(CopilotAutopilotRunAction.class) == null) {
            return List.of();
        }
        return List.of(new CopilotAutopilotProjectAction(target));
    }
}
