package io.jenkins.plugins.copilotautopilot.testing;

import hudson.model.Job;
import hudson.model.Run;
import hudson.model.TaskListener;
import io.jenkins.plugins.checks.api.ChecksDetails;
import io.jenkins.plugins.checks.api.ChecksPublisher;
import io.jenkins.plugins.checks.api.ChecksPublisherFactory;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Checks as checks-api hands them to a publisher, caught (as checks-api's own tests catch them). A test class makes it
 * an extension with {@code @TestExtension public static final class Capturing extends CapturedChecks {}}.
 */
public abstract class CapturedChecks extends ChecksPublisherFactory {
    public static final List<ChecksDetails> published = new CopyOnWriteArrayList<>();

    @Override
    protected Optional<ChecksPublisher> createPublisher(Run<?, ?> run, TaskListener listener) {
        return Optional.of(new ChecksPublisher() {
            @Override
            public void publish(ChecksDetails details) {
                published.add(details);
            }
        });
    }

    @Override
    protected Optional<ChecksPublisher> createPublisher(Job<?, ?> job, TaskListener listener) {
        return Optional.empty();
    }
}
