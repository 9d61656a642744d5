package io.jenkins.plugins.copilotautopilot;

import hudson.AbortException;
import hudson.EnvVars;
import hudson.FilePath;
import hudson.Launcher;
import hudson.model.Computer;
import hudson.model.Node;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.remoting.VirtualChannel;
import hudson.slaves.WorkspaceList;
import io.jenkins.plugins.copilotautopilot.core.command.AutopilotOptions;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommandBuilder;
import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.command.CliNotFoundException;
import io.jenkins.plugins.copilotautopilot.core.command.InvalidOptionsException;
import io.jenkins.plugins.copilotautopilot.core.command.WorkspacePaths;
import io.jenkins.plugins.copilotautopilot.core.engine.AutopilotEngine;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.journal.SafeFileNames;
import io.jenkins.plugins.copilotautopilot.core.outcome.BuildVerdict;
import io.jenkins.plugins.copilotautopilot.core.render.PrintStreamLogSink;
import io.jenkins.plugins.copilotautopilot.core.settings.GithubTokenSource;
import io.jenkins.plugins.copilotautopilot.core.settings.TaskSettings;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
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

    /** A finished session and what it makes of the build, decided with the settings the session ran with. */
    record Finished(SessionResult result, BuildVerdict verdict) {
    }

    static Finished perform(CopilotAutopilotTask task, Run<?, ?> run, FilePath workspace, EnvVars env,
                                 Launcher launcher, TaskListener listener, String invocationId)
            throws IOException, InterruptedException {
        TaskSettings settings = task.toSettings().withDefaults(CopilotAutopilotConfiguration.get().toDefaults());
        if (!settings.fromDefaults().isEmpty()) {
            listener.getLogger().println(Messages.AutopilotStepRunner_FromDefaults(String.join(", ", settings.fromDefaults())));
        }
        GithubTokenSource tokenSource = settings.githubTokenSource(env);
        String token = githubToken(tokenSource, run, env);
        String apiKey = settings.providerCredentialsId() != null
                ? StringCredentialLookup.secret(run, settings.providerCredentialsId(), "providerCredentialsId")
                : null;
        AutopilotOptions options;
        try {
            options = settings.toOptions(token, apiKey);
        } catch (InvalidOptionsException e) {
            throw new AbortException(Messages.AutopilotStepRunner_InvalidOptions(String.join(" ", e.problems())));
        }
        if (options.githubToken() == null && options.provider() == null) {
            throw new AbortException(Messages.AutopilotStepRunner_NoCredentials());
        }
        if (!tokenSource.isNone()) {
            listener.getLogger().println(Messages.AutopilotStepRunner_TokenSource(tokenSource.describe()));
        }
        FilePath workDir = workingDirectory(settings, workspace);

        VirtualChannel channel = launcher.getChannel();
        if (channel == null) {
            throw new AbortException(Messages.AutopilotStepRunner_Offline());
        }
        CliExecutable cli;
        try {
            cli = LocateCliCallable.executable(channel.call(
                    new LocateCliCallable(cliLocation(settings, workspace, env, listener), env.get("PATH"))));
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
            return new Finished(result, BuildVerdict.of(result.outcome(), settings.resultWhenIncompleteValue()));
        } finally {
            deleteQuietly(home, listener);
        }
    }

    private static String githubToken(GithubTokenSource source, Run<?, ?> run, EnvVars env) throws AbortException {
        if (source.credentialsId() != null) {
            return StringCredentialLookup.secret(run, source.credentialsId(),
                    source.fromDefaults() ? "credentialsId (global default)" : "credentialsId");
        }
        return source.variable() != null ? env.get(source.variable()) : null;
    }

    /**
     * What to hand the CLI locator on the agent: the step's {@code copilotPath}; else the named (or default)
     * tool installation, installed on this agent now if it has an installer; else {@code COPILOT_CLI} from the
     * build's environment; else null, to search the PATH.
     */
    private static String cliLocation(TaskSettings settings, FilePath workspace, EnvVars env, TaskListener listener)
            throws IOException, InterruptedException {
        if (settings.copilotPath() != null) {
            return settings.copilotPath();
        }
        if (settings.installation() != null) {
            CopilotCliInstallation installation = CopilotCliInstallation.named(settings.installation());
            if (installation == null) {
                throw new AbortException(Messages.AutopilotStepRunner_NoSuchInstallation(settings.installation()));
            }
            Computer computer = workspace.toComputer();
            Node node = computer == null ? null : computer.getNode();
            if (node == null) {
                throw new AbortException(Messages.AutopilotStepRunner_NoNode(workspace.getRemote()));
            }
            return installation.forNode(node, listener).forEnvironment(env).getHome();
        }
        return env.get(CopilotCliInstallation.CLI_VARIABLE);
    }

    /** The build's failure message: the outcome and its reason, no stack trace. */
    static String failureMessage(SessionResult result) {
        return Messages.AutopilotStepRunner_Failed(result.outcome().name(), result.reason());
    }

    private static FilePath workingDirectory(TaskSettings settings, FilePath workspace)
            throws IOException, InterruptedException {
        String relative;
        try {
            relative = WorkspacePaths.relative(settings.workingDirectory());
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
