package io.jenkins.plugins.copilotautopilot.step;

import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.record.SessionRecording;

import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.AbortException;
import hudson.EnvVars;
import hudson.Extension;
import hudson.FilePath;
import hudson.Launcher;
import hudson.model.AbstractBuild;
import hudson.model.AbstractProject;
import hudson.model.Result;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.tasks.BuildStepDescriptor;
import hudson.tasks.BuildStepMonitor;
import hudson.tasks.Builder;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import java.io.IOException;
import java.util.Set;
import jenkins.tasks.SimpleBuildStep;
import net.sf.json.JSONObject;
import org.kohsuke.stapler.DataBoundConstructor;
import org.kohsuke.stapler.StaplerRequest2;

/**
 * The Freestyle build step "Run a Copilot autopilot task": runs a {@link CopilotAutopilotStep}'s task (its settings, its
 * form and its help are the Pipeline step's) on the build's thread. Pipelines use the step itself; hence no symbol here.
 */
public final class CopilotAutopilotBuilder extends Builder implements SimpleBuildStep {
    private final CopilotAutopilotStep task;

    @DataBoundConstructor
    public CopilotAutopilotBuilder(CopilotAutopilotStep task) {
        this.task = task;
    }

    /** The task: every setting, as the Pipeline step has them. */
    public CopilotAutopilotStep getTask() {
        return task;
    }

    @Override
    public void perform(@NonNull Run<?, ?> run, @NonNull FilePath workspace, @NonNull EnvVars env,
                        @NonNull Launcher launcher, @NonNull TaskListener listener) throws InterruptedException, IOException {
        String invocation = CopilotAutopilotRunAction.nextBuildStepId(run);
        Set<String> sensitive = run instanceof AbstractBuild<?, ?> build ? build.getSensitiveBuildVariables() : Set.of();
        FreestyleSession.Ended ended = FreestyleSession.run(task, this, run, workspace, env, launcher, listener, invocation, sensitive);
        SessionResult result = ended.result();
        switch (ended.verdict()) {
            case UNSTABLE:
                listener.getLogger().println(Messages.CopilotAutopilotStepExecution_Warning(result.outcome().name(), result.reason()));
                run.setResult(Result.UNSTABLE);
                break;
            case FAILURE:
                throw new AbortException(SessionRecording.failureMessage(result));
            case ABORTED:
                if (result.outcome() != Outcome.ABORTED) {
                    // stopped while the session was ending: the build still stops here
                    listener.getLogger().println(Messages.CopilotAutopilotStepExecution_StoppedAsItEnded(result.outcome().name()));
                }
                throw new InterruptedException(result.reason());
            case SUCCESS:
            default:
                break;
        }
    }

    @Override
    public BuildStepMonitor getRequiredMonitorService() {
        return BuildStepMonitor.NONE;
    }

    @Extension
    public static final class DescriptorImpl extends BuildStepDescriptor<Builder> {
        @NonNull
        @Override
        public String getDisplayName() {
            return Messages.CopilotAutopilotBuilder_DisplayName();
        }

        @Override
        public boolean isApplicable(Class<? extends AbstractProject> jobType) {
            return true;
        }

        @Override
        public Builder newInstance(StaplerRequest2 req, @NonNull JSONObject formData) throws FormException {
            return super.newInstance(req, FormLists.nestedFromForm(formData, "task"));
        }
    }
}
