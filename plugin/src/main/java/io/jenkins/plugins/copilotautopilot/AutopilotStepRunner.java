package io.jenkins.plugins.copilotautopilot;

import hudson.AbortException;
import hudson.EnvVars;
import hudson.FilePath;
import hudson.Launcher;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.remoting.VirtualChannel;
import hudson.slaves.WorkspaceList;
import io.jenkins.plugins.copilotautopilot.core.command.AutopilotOptions;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommandBuilder;
import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.command.CliNotFoundException;
import io.jenkins.plugins.copilotautopilot.core.command.EnvironmentTokens;
import io.jenkins.plugins.copilotautopilot.core.command.ProviderOptions;
import io.jenkins.plugins.copilotautopilot.core.command.WorkspacePaths;
import io.jenkins.plugins.copilotautopilot.core.engine.AutopilotEngine;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.journal.SafeFileNames;
import io.jenkins.plugins.copilotautopilot.core.outcome.BuildVerdict;
import io.jenkins.plugins.copilotautopilot.core.outcome.ResultWhenIncomplete;
import io.jenkins.plugins.copilotautopilot.core.render.PrintStreamLogSink;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * Runs one {@link CopilotAutopilotTask} in a build, Pipeline or Freestyle: resolves the credentials, finds
 * the CLI on the agent, launches it there through the build's launcher, and lets the core engine stream,
 * mask, journal and judge the session. Every decision is made by the engine; this class only connects it
 * to Jenkins.
 */
final class AutopilotStepRunner {
    static final String JOURNAL_FOLDER = "copilot-autopilot";

    private AutopilotStepRunner() {
    }

    static SessionResult perform(CopilotAutopilotTask task, Run<?, ?> run, FilePath workspace, EnvVars env,
                                 Launcher launcher, TaskListener listener, String invocationId)
            throws IOException, InterruptedException {
        String token = task.getCredentialsId() != null
                ? StringCredentialLookup.secret(run, task.getCredentialsId(), "credentialsId")
                : EnvironmentTokens.githubToken(env);
        String apiKey = task.getProviderCredentialsId() != null
                ? StringCredentialLookup.secret(run, task.getProviderCredentialsId(), "providerCredentialsId")
                : null;
        AutopilotOptions options = toOptions(task, token, apiKey);
        List<String> problems = options.validate();
        if (!problems.isEmpty()) {
            throw new AbortException(Messages.AutopilotStepRunner_InvalidOptions(String.join(" ", problems)));
        }
        if (options.githubToken() == null && options.provider() == null) {
            throw new AbortException(Messages.AutopilotStepRunner_NoCredentials());
        }
        FilePath workDir = workingDirectory(task, workspace);

        VirtualChannel channel = launcher.getChannel();
        if (channel == null) {
            throw new AbortException(Messages.AutopilotStepRunner_Offline());
        }
        CliExecutable cli;
        try {
            cli = LocateCliCallable.executable(channel.call(new LocateCliCallable(task.getCopilotPath(), env.get("PATH"))));
        } catch (CliNotFoundException e) {
            throw new AbortException(e.getMessage());
        }

        FilePath home = copilotHome(workspace);
        File journal = journalFile(run, invocationId);
        try (OutputStream journalOut = Files.newOutputStream(journal.toPath())) {
            CliCommand command = CliCommandBuilder.build(options, cli, workDir.getRemote(), home.getRemote());
            AutopilotEngine engine = AutopilotEngine.builder(new PrintStreamLogSink(listener.getLogger()))
                    .journalTo(journalOut)
                    .build();
            SessionResult result = engine.run(command, new JenkinsCliLauncher(launcher, env, workDir));
            CopilotAutopilotRunAction.record(run, new SessionRecord(invocationId, journal.getName(), result));
            if (Thread.interrupted()) {
                throw new InterruptedException(result.reason());
            }
            return result;
        } finally {
            deleteQuietly(home, listener);
        }
    }

    static BuildVerdict verdict(CopilotAutopilotTask task, SessionResult result) throws AbortException {
        try {
            return BuildVerdict.of(result.outcome(), ResultWhenIncomplete.parse(task.getResultWhenIncomplete()));
        } catch (IllegalArgumentException e) {
            throw new AbortException(e.getMessage());
        }
    }

    /** The build's failure message: the outcome and its reason, no stack trace. */
    static String failureMessage(SessionResult result) {
        return Messages.AutopilotStepRunner_Failed(result.outcome().name(), result.reason());
    }

    static AutopilotOptions toOptions(CopilotAutopilotTask task, String token, String apiKey) throws AbortException {
        AutopilotOptions.Builder b = AutopilotOptions.builder(task.getPrompt())
                .model(task.getModel())
                .maxAutopilotContinues(task.getMaxAutopilotContinues())
                .allowAllTools(task.isAllowAllTools())
                .githubToken(token)
                .timeout(minutes(task.getTimeout(), AutopilotOptions.DEFAULT_TIMEOUT))
                .inactivityTimeout(minutes(task.getInactivityTimeout(), AutopilotOptions.DEFAULT_INACTIVITY_TIMEOUT));
        task.getAllowTools().forEach(b::allowTool);
        task.getDenyTools().forEach(b::denyTool);
        task.getAddDirs().forEach(b::addDir);
        task.getSecretEnvVars().forEach(b::secretEnvVar);
        if (task.getProviderBaseUrl() != null) {
            b.provider(new ProviderOptions(task.getProviderBaseUrl(), task.getProviderType(), apiKey,
                    task.getProviderWireApi(), task.isOffline()));
        } else if (task.isOffline()) {
            throw new AbortException(Messages.AutopilotStepRunner_OfflineNeedsProvider());
        }
        return b.build();
    }

    /** Minutes from a step parameter: null gives the default, 0 turns the limit off. */
    static Duration minutes(Integer value, Duration fallback) {
        if (value == null) {
            return fallback;
        }
        return value == 0 ? null : Duration.ofMinutes(value);
    }

    private static FilePath workingDirectory(CopilotAutopilotTask task, FilePath workspace)
            throws IOException, InterruptedException {
        String relative;
        try {
            relative = WorkspacePaths.relative(task.getWorkingDirectory());
        } catch (IllegalArgumentException e) {
            throw new AbortException(e.getMessage());
        }
        FilePath dir = relative.isEmpty() ? workspace : workspace.child(relative);
        if (!dir.isDirectory()) {
            throw new AbortException(Messages.AutopilotStepRunner_NoWorkingDirectory(dir.getRemote()));
        }
        return dir;
    }

    /** A private, empty COPILOT_HOME in the workspace's temporary area, removed afterwards. */
    private static FilePath copilotHome(FilePath workspace) throws IOException, InterruptedException {
        FilePath tmp = WorkspaceList.tempDir(workspace);
        if (tmp == null) {
            throw new AbortException(Messages.AutopilotStepRunner_NoTempDir(workspace.getRemote()));
        }
        FilePath home = tmp.child("copilot-home-" + UUID.randomUUID());
        home.mkdirs();
        return home;
    }

    /** The journal of one step invocation, under the build's folder on the controller. */
    static File journalFile(Run<?, ?> run, String invocationId) throws IOException {
        File folder = new File(run.getRootDir(), JOURNAL_FOLDER);
        Files.createDirectories(folder.toPath());
        return SafeFileNames.resolveInside(folder.toPath(), invocationId + ".jsonl").toFile();
    }

    private static void deleteQuietly(FilePath dir, TaskListener listener) {
        try {
            dir.deleteRecursive();
        } catch (IOException | InterruptedException e) {
            listener.getLogger().println(Messages.AutopilotStepRunner_CannotDeleteHome(dir.getRemote(), e.getMessage()));
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
