package io.jenkins.plugins.copilotautopilot;

import hudson.AbortException;
import hudson.EnvVars;
import hudson.FilePath;
import hudson.Launcher;
import hudson.model.Result;
import hudson.model.Run;
import hudson.model.TaskListener;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jenkinsci.plugins.workflow.actions.WarningAction;
import org.jenkinsci.plugins.workflow.graph.FlowNode;
import org.jenkinsci.plugins.workflow.steps.FlowInterruptedException;
import org.jenkinsci.plugins.workflow.steps.StepContext;
import org.jenkinsci.plugins.workflow.steps.SynchronousNonBlockingStepExecution;

/**
 * Runs the task on a background thread; the Pipeline's stop (abort, {@code timeout}) interrupts that thread,
 * which stops the CLI and everything it started. Returns a plain map, usable in a sandboxed Pipeline.
 */
final class CopilotAutopilotStepExecution extends SynchronousNonBlockingStepExecution<Map<String, Object>> {
    private static final long serialVersionUID = 1L;

    private final transient CopilotAutopilotStep step;

    CopilotAutopilotStepExecution(CopilotAutopilotStep step, StepContext context) {
        super(context);
        this.step = step;
    }

    @Override
    protected Map<String, Object> run() throws Exception {
        StepContext context = getContext();
        Run<?, ?> run = context.get(Run.class);
        TaskListener listener = context.get(TaskListener.class);
        FlowNode node = context.get(FlowNode.class);
        AutopilotStepRunner.Finished finished = AutopilotStepRunner.perform(step, run, context.get(FilePath.class),
                context.get(EnvVars.class), context.get(Launcher.class), listener, "node-" + node.getId());
        SessionResult result = finished.result();
        switch (finished.verdict()) {
            case UNSTABLE:
                node.addOrReplaceAction(new WarningAction(Result.UNSTABLE).withMessage(result.reason()));
                run.setResult(Result.UNSTABLE);
                break;
            case FAILURE:
                throw new AbortException(AutopilotStepRunner.failureMessage(result));
            case ABORTED:
                throw new FlowInterruptedException(Result.ABORTED);
            case SUCCESS:
            default:
                break;
        }
        return new LinkedHashMap<>(result.toMap());
    }
}
