package io.jenkins.plugins.copilotautopilot.agent;

import hudson.FilePath;
import hudson.model.TaskListener;
import hudson.remoting.VirtualChannel;
import java.io.File;
import jenkins.MasterToSlaveFileCallable;
import org.jenkinsci.plugins.durabletask.Controller;

/**
 * On the agent: starts following a session there ({@link EventsHandler#follow}), in place of durable-task's watch. The
 * task is still durable-task's: it launched it, and its controller says when it has exited (its own checks of the
 * wrapper's heartbeat included) and cleans up after it, as for {@code sh}; but its watch looks ten times a second and
 * makes its paths anew at every look, for a signal the handler reads from two file sizes (measured over a quiet
 * round, the agent's timer threads spent 650 ms with this follower against 910 ms with the watch).
 */
final class FollowCallable extends MasterToSlaveFileCallable<Void> {
    private static final long serialVersionUID = 1L;

    private final Controller controller;
    private final EventsHandler handler;
    private final TaskListener listener;

    FollowCallable(Controller controller, EventsHandler handler, TaskListener listener) {
        this.controller = controller;
        this.handler = handler;
        this.listener = listener;
    }

    @Override
    public Void invoke(File taskWorkspace, VirtualChannel channel) {
        handler.follow(controller, new FilePath(taskWorkspace), listener);
        return null;
    }
}
