package io.jenkins.plugins.copilotautopilot.agent;

import hudson.remoting.VirtualChannel;
import io.jenkins.plugins.copilotautopilot.core.launch.LaunchFiles;
import java.io.File;
import java.io.IOException;
import jenkins.MasterToSlaveFileCallable;

/**
 * On the agent: tells the launch script waiting in the control folder what comes next ({@link LaunchFiles#writeAnswer}):
 * the acceptance check, the CLI resumed with the agent's next task (already masked), or the end. Written once.
 */
final class AnswerCallable extends MasterToSlaveFileCallable<Void> {
    private static final long serialVersionUID = 1L;

    private final int step;
    private final String answer;
    private final String prompt;

    AnswerCallable(int step, String answer, String prompt) {
        this.step = step;
        this.answer = answer;
        this.prompt = prompt;
    }

    @Override
    public Void invoke(File folder, VirtualChannel channel) throws IOException {
        if (folder.isDirectory()) {
            LaunchFiles.writeAnswer(folder.toPath(), step, answer, prompt);
        }
        return null;
    }
}
