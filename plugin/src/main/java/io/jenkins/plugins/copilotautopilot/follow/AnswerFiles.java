package io.jenkins.plugins.copilotautopilot.follow;

import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.agent.AgentSession;
import io.jenkins.plugins.copilotautopilot.agent.TimeLimits;
import io.jenkins.plugins.copilotautopilot.session.ResumeState;

import hudson.FilePath;
import hudson.model.TaskListener;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.output.IssuesFile;
import io.jenkins.plugins.copilotautopilot.core.output.ReviewFindings;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.jenkinsci.plugins.workflow.FilePathUtils;

/**
 * What an ended session's answer leaves: its findings held to the workspace (a path outside it dropped with a line in
 * the console), the {@code outputFile} with the answer and the {@code issuesFile} with the findings, written on the
 * launch node. Bounded in time; never throws.
 */
final class AnswerFiles {
    private AnswerFiles() {
    }

    /** The result with its findings' paths relative to the workspace; what points outside it is dropped and said. */
    static SessionResult held(ResumeState state, SessionResult result, TaskListener listener) {
        ResumeState.AnswerPaths paths = state == null ? null : state.answerPaths();
        if (paths == null || result.answer().findings().isEmpty()) {
            return result;
        }
        Path workspace = Path.of(paths.workspace());
        ReviewFindings.Held held = ReviewFindings.inWorkspace(result.answer().findings(), workspace,
                workspace.relativize(Path.of(paths.workingDirectory())));
        held.warnings(state.plan().get(SessionSettings.AGENT_TEXT_IN_CONSOLE))
                .forEach(w -> listener.getLogger().println(Messages.AnswerFiles_Dropped(w)));
        return result.withFindings(held.findings());
    }

    /** Writes the files the session's settings name; the result's findings must be {@link #held}. */
    static void write(ResumeState state, SessionResult result, TaskListener listener) {
        ResumeState.AnswerPaths paths = state == null ? null : state.answerPaths();
        if (paths == null) {
            return;
        }
        if (paths.outputFile() != null) {
            byte[] answer = result.answer().output() == null ? null : result.answer().output().getBytes(StandardCharsets.UTF_8);
            write(state.launchNode(), paths.outputFile(), answer, listener, answer == null
                    ? Messages.AnswerFiles_NoAnswer(paths.outputFile()) : Messages.AnswerFiles_Answer(paths.outputFile()));
        }
        if (paths.issuesFile() != null) {
            write(state.launchNode(), paths.issuesFile(), IssuesFile.of(result.answer().findings()), listener,
                    Messages.AnswerFiles_Issues(result.answer().findings().size(), paths.issuesFile()));
        }
    }

    /** Writes {@code content} to {@code path} on {@code node} (null: removes it) and says {@code written}. */
    private static void write(String node, String path, byte[] content, TaskListener listener, String written) {
        try {
            FilePath file = FilePathUtils.find(node, path);
            if (file == null) {
                throw new IOException(Messages.AgentSession_Offline(node.isEmpty() ? "the built-in node" : node));
            }
            TimeLimits.limit(file.getChannel(), AgentSession.REMOTE_TIMEOUT_SECONDS, "writing " + path, () -> {
                if (content == null) {
                    if (file.exists()) {
                        file.delete();
                    }
                    return null;
                }
                FilePath parent = file.getParent();
                if (parent != null) {
                    parent.mkdirs();
                }
                try (var out = file.write()) {
                    out.write(content);
                }
                return null;
            });
            listener.getLogger().println(written);
        } catch (IOException | RuntimeException e) {
            listener.getLogger().println(Messages.AnswerFiles_NotWritten(path, e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
