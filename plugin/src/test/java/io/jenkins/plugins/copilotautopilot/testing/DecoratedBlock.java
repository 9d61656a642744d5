package io.jenkins.plugins.copilotautopilot.testing;

import hudson.LauncherDecorator;
import java.util.Set;
import org.jenkinsci.plugins.workflow.steps.BodyExecutionCallback;
import org.jenkinsci.plugins.workflow.steps.BodyInvoker;
import org.jenkinsci.plugins.workflow.steps.StepContext;
import org.jenkinsci.plugins.workflow.steps.StepDescriptor;
import org.jenkinsci.plugins.workflow.steps.StepExecution;

/**
 * A test's block step whose body runs with a launcher decorator of its own (a launch whose answer is lost, a slow one,
 * a container's), merged with the decorators around it, as kubernetes-plugin's {@code container} and docker-workflow's
 * {@code inside} decorate theirs. Each test declares its step (its name, its arguments) and its descriptor, extending
 * {@link Descriptor}, as a {@code @TestExtension} of its own.
 */
public final class DecoratedBlock extends StepExecution {
    private static final long serialVersionUID = 1L;
    /** Used when the body starts only: a resumed block has started its body already. */
    private final transient LauncherDecorator decorator;

    public DecoratedBlock(StepContext context, LauncherDecorator decorator) {
        super(context);
        this.decorator = decorator;
    }

    @Override
    public boolean start() throws Exception {
        getContext().newBodyInvoker()
                .withContext(BodyInvoker.mergeLauncherDecorators(getContext().get(LauncherDecorator.class), decorator))
                .withCallback(BodyExecutionCallback.wrap(getContext()))
                .start();
        return false;
    }

    /** A block step needing nothing from its context. */
    public abstract static class Descriptor extends StepDescriptor {
        @Override
        public boolean takesImplicitBlockArgument() {
            return true;
        }

        @Override
        public Set<? extends Class<?>> getRequiredContext() {
            return Set.of();
        }
    }
}
