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
import io.jenkins.plugins.copilotautopilot.core.command.AutopilotOptions;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommandBuilder;
import io.jenkins.plugins.copilotautopilot.core.command.CliExecutable;
import io.jenkins.plugins.copilotautopilot.core.command.CliNotFoundException;
import io.jenkins.plugins.copilotautopilot.core.command.InvalidOptionsException;
import io.jenkins.plugins.copilotautopilot.core.command.WorkspacePaths;
import io.jenkins.plugins.copilotautopilot.core.engine.AutopilotEngine;
import io.jenkins.plugins.copilotautopilot.core.engine.Checkpoint;
import io.jenkins.plugins.copilotautopilot.core.engine.CheckpointFile;
import io.jenkins.plugins.copilotautopilot.core.engine.EngineTimings;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionFollower;
import io.jenkins.plugins.copilotautopilot.core.engine.SessionResult;
import io.jenkins.plugins.copilotautopilot.core.journal.JournalFiles;
import io.jenkins.plugins.copilotautopilot.core.journal.SafeFileNames;
import io.jenkins.plugins.copilotautopilot.core.outcome.BuildVerdict;
import io.jenkins.plugins.copilotautopilot.core.outcome.ResultWhenIncomplete;
import io.jenkins.plugins.copilotautopilot.core.render.PrintStreamLogSink;
import io.jenkins.plugins.copilotautopilot.core.report.SessionReportStore;
import io.jenkins.plugins.copilotautopilot.core.settings.GithubTokenSource;
import io.jenkins.plugins.copilotautopilot.core.settings.BuildLogExcerpt;
import io.jenkins.plugins.copilotautopilot.core.settings.TaskSettings;
import org.jenkinsci.plugins.workflow.FilePathUtils;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Where a build meets the engine, Pipeline or Freestyle: starts a session on the build's agent (credentials,
 * the CLI, the working directory, the control folder), resumes following it after a controller restart, and
 * records it when it has ended. Every decision about the session itself is the engine's.
 */
final class AutopilotStepRunner {
    static final String JOURNAL_FOLDER = "copilot-autopilot";
    private static final String CHECKPOINT_SUFFIX = ".checkpoint";
    private static final Pattern VARIABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** How the controller looks at running sessions ({@link EngineTimings#CONTROLLER}, the looks' pace adjustable). */
    static final EngineTimings TIMINGS = new EngineTimings(
            Duration.ofMillis(Long.getLong(AutopilotStepRunner.class.getName() + ".pollMinMillis",
                    EngineTimings.CONTROLLER.pollMin().toMillis())),
            Duration.ofMillis(Long.getLong(AutopilotStepRunner.class.getName() + ".pollMaxMillis",
                    EngineTimings.CONTROLLER.pollMax().toMillis())),
            EngineTimings.CONTROLLER.exitAfterResult(), EngineTimings.CONTROLLER.exitAfterStop(), EngineTimings.CONTROLLER.chunkBytes());
    /** How long installing the CLI on an agent may take (a download). */
    static final long INSTALL_TIMEOUT_MINUTES = Long.getLong(AutopilotStepRunner.class.getName() + ".installTimeoutMinutes", 15);
    /** The most of a session's CLI output its journal keeps, in MiB of characters. */
    static final long JOURNAL_LIMIT_MB = Long.getLong(AutopilotStepRunner.class.getName() + ".journalLimitMegabytes", 256);

    /** Console lines read beyond those asked for by {@code includeBuildLog}, for the step's own lines left out. */
    private static final int BUILD_LOG_SLACK_LINES = 2_000;

    private AutopilotStepRunner() {
    }

    /**
     * A session ready to start: its command, its follower (the header is printed, the journal begun), its launch
     * folder and what a restarted controller needs of it.
     */
    record Prepared(CliCommand command, SessionFollower follower, FilePath launchFolder, EnvVars env, ResumeState state) {
    }

    /**
     * Prepares a session: resolves the settings and credentials, finds (or installs) the CLI and the working directory
     * on the agent, and begins the log and the journal. Nothing runs on the agent yet; every call to it is limited
     * in time.
     *
     * @param sensitiveVariables names of build variables whose values are secrets ({@code withCredentials})
     * @param propagate          false: the step gives its result instead of failing (kept for a resume)
     * @throws AbortException for settings that cannot run (the message says what to change)
     */
    static Prepared prepare(CopilotAutopilotStep task, Run<?, ?> run, FilePath workspace, EnvVars env, Launcher launcher,
                            TaskListener listener, String invocationId, Collection<String> sensitiveVariables,
                            boolean propagate) throws IOException, InterruptedException {
        if (!launcher.isUnix()) {
            throw new AbortException(Messages.AgentCliLauncher_NotUnix()); // before any lookup or download
        }
        String nodeName = FilePathUtils.getNodeName(workspace);
        hudson.model.Computer computer = workspace.toComputer();
        CopilotAutopilotConfiguration.get().checkAllowed(computer == null ? null : computer.getNode(),
                nodeName.isEmpty() ? "the built-in node" : nodeName);
        TaskSettings settings = task.toSettings().withDefaults(CopilotAutopilotConfiguration.get().toDefaults());
        if (!settings.fromDefaults().isEmpty()) {
            listener.getLogger().println(Messages.AutopilotStepRunner_FromDefaults(String.join(", ", settings.fromDefaults())));
        }
        GithubTokenSource tokenSource = settings.githubTokenSource(env);
        String token = githubToken(tokenSource.credentialsId(), tokenSource.variable(), tokenSource.fromDefaults(), run, env);
        String apiKey = settings.providerCredentialsId() != null
                ? StringCredentialLookup.secret(run, settings.providerCredentialsId(), "providerCredentialsId")
                : null;
        String node = FilePathUtils.getNodeName(workspace).isEmpty() ? "the built-in node" : FilePathUtils.getNodeName(workspace);
        ChangeRequestTrust.Untrusted untrusted = ChangeRequestTrust.of(run, listener);
        String policy = CopilotAutopilotConfiguration.get().untrustedChangeRequestsPolicy();
        if (untrusted != null && policy.equals(CopilotAutopilotConfiguration.UNTRUSTED_REFUSE)) {
            throw new AbortException(Messages.ChangeRequestTrust_Refused(untrusted.name()));
        }
        if (untrusted != null && policy.equals(CopilotAutopilotConfiguration.UNTRUSTED_ALLOW)) {
            listener.getLogger().println(Messages.ChangeRequestTrust_Allowed(untrusted.name()));
        }
        boolean restricted = untrusted != null && policy.equals(CopilotAutopilotConfiguration.UNTRUSTED_RESTRICTED);
        String promptFileText = null;
        if (settings.promptFile() != null && restricted) {
            promptFileText = ChangeRequestTrust.readTrusted(untrusted, settings.promptFile());
            listener.getLogger().println(Messages.AutopilotStepRunner_PromptFromTrustedFile(settings.promptFile(), promptFileText.length()));
        } else if (settings.promptFile() != null) {
            String name = settings.promptFile();
            promptFileText = TimeLimits.limit(workspace.getChannel(), AgentSession.REMOTE_TIMEOUT_SECONDS,
                    Messages.AutopilotStepRunner_ReadingPromptFile(name, node), () -> PromptFile.read(workspace, name));
            listener.getLogger().println(Messages.AutopilotStepRunner_PromptFromFile(name, promptFileText.length()));
        }
        AutopilotOptions options;
        try {
            options = withSensitiveVariables(settings.toOptions(token, apiKey, promptFileText), sensitiveVariables, env);
        } catch (InvalidOptionsException e) {
            throw new AbortException(Messages.AutopilotStepRunner_InvalidOptions(String.join(" ", e.problems())));
        }
        List<String> mcpReferences = List.of();
        if (settings.mcpServers() != null && !restricted) {
            String text = TimeLimits.limit(workspace.getChannel(), AgentSession.REMOTE_TIMEOUT_SECONDS,
                    Messages.AutopilotStepRunner_ReadingMcpServers(node), () -> McpServersSetting.text(settings.mcpServers(), workspace));
            mcpReferences = McpServersSetting.references(text);
            options = options.toBuilder().mcpServers(McpServersSetting.resolve(text, run, env)).build();
        }
        if (restricted) {
            AutopilotOptions.Restricted r = options.restrictedForUntrusted();
            options = r.options();
            listener.getLogger().println(Messages.ChangeRequestTrust_Restricted(untrusted.name(), r.removed().isEmpty() && settings.mcpServers() == null
                    ? "" : "; taken away: " + String.join(", ", withMcp(r.removed(), settings.mcpServers() != null))));
        }
        if (settings.session() != null) {
            options = options.toBuilder().keptSession(KeptSessions.load(run, settings.session(), listener)).build();
        }
        for (String name : settings.toolSecrets()) {
            if (env.get(name) == null) {
                listener.getLogger().println(Messages.AutopilotStepRunner_ToolSecretUnset(name));
            }
        }
        if (settings.includeBuildLog() != null && settings.includeBuildLog() > 0) {
            options = withBuildLog(options, settings.includeBuildLog(), run, env, listener);
        }
        if (options.githubToken() == null && options.provider() == null) {
            throw new AbortException(Messages.AutopilotStepRunner_NoCredentials());
        }
        if (!tokenSource.isNone()) {
            listener.getLogger().println(Messages.AutopilotStepRunner_TokenSource(tokenSource.describe()));
        }
        FilePath workDir = TimeLimits.limit(AgentSession.REMOTE_TIMEOUT_SECONDS, Messages.AutopilotStepRunner_PreparingWorkDir(node),
                () -> workingDirectory(settings, workspace));
        boolean insideContainer = AgentCliLauncher.insideContainer(launcher);
        String location = cliLocation(settings, workspace, env, listener);
        CliExecutable cli;
        if (insideContainer) {
            // the agent's file system is not the container's: the launch script looks for the CLI in there
            cli = new CliExecutable(nullToEmpty(location), null);
        } else {
            cli = TimeLimits.limit(AgentSession.REMOTE_TIMEOUT_SECONDS, Messages.AutopilotStepRunner_LookingForCli(node),
                    () -> locate(location, env, launcher));
        }
        FilePath launchFolder = AgentCliLauncher.newLaunchFolder(workspace);
        CliCommand command;
        try {
            command = CliCommandBuilder.build(options, cli, workDir.getRemote(), launchFolder.getRemote(), env);
        } catch (InvalidOptionsException e) {
            throw new AbortException(Messages.AutopilotStepRunner_InvalidOptions(String.join(" ", e.problems())));
        }
        File journal = journalFile(run, invocationId);
        long startedAt = System.currentTimeMillis();
        SessionFollower follower = engine(listener, Files.newOutputStream(journal.toPath()), settings.agentTextInConsole())
                .follow(command, env, startedAt);
        ResumeState state = new ResumeState(invocationId, FilePathUtils.getNodeName(workspace), launchFolder.getRemote(), null,
                startedAt, millis(options.timeout()), millis(options.inactivityTimeout()), tokenSource.credentialsId(),
                settings.providerCredentialsId(), command.secretVariables(), settings.resultWhenIncompleteValue().name(),
                propagate, options.maxPremiumRequests(), options.maxTokens(), settings.agentTextInConsole(),
                settings.resultWhenBlockedValue().name(), settings.changesFile(),
                settings.changesFile() == null ? null : workspace.child(settings.changesFile()).getRemote(),
                settings.checksNameToPublish(), millis(options.toolTimeout()), millis(options.startupTimeout()),
                options.verify(), options.maxVerifyRounds(), mcpReferences, settings.session());
        LiveSessions.started(run, invocationId, journal, state);
        CopilotAutopilotRunAction.showLive(run);
        SessionChecks.started(run, state, listener);
        try {
            listener.getLogger().print(Messages.AutopilotStepRunner_LivePrefix());
            listener.hyperlink("/" + run.getUrl() + CopilotAutopilotRunAction.URL_NAME + "/", Messages.AutopilotStepRunner_LiveLink());
            listener.getLogger().println();
        } catch (IOException e) {
            listener.getLogger().println(Messages.AutopilotStepRunner_LiveLink());
        }
        return new Prepared(command, follower, launchFolder, env, state);
    }

    /**
     * Starts a prepared session on the agent. When it cannot start, the follower ends FAILED with the reason and
     * null is returned; nothing is left on the agent.
     */
    static AgentSession launch(Prepared prepared, Launcher launcher, TaskListener listener, AgentSession.Owner owner)
            throws InterruptedException {
        try {
            return AgentCliLauncher.launch(prepared.command(), prepared.launchFolder(), launcher, prepared.env(), listener, owner);
        } catch (IOException e) {
            prepared.follower().launchFailed(e.getMessage() == null ? e.toString() : e.getMessage());
            return null;
        }
    }

    private static List<String> withMcp(List<String> removed, boolean mcpServers) {
        List<String> all = new ArrayList<>(removed);
        if (mcpServers && !all.contains("mcpServers")) {
            all.add("mcpServers");
        }
        return all;
    }

    /**
     * Follows a session again after the controller restarted: the secrets are looked up again (from the same
     * credentials and variables), the journal is cut back to the last checkpoint, and the new follower reads the
     * session up to there without printing anything.
     *
     * @throws IOException when the agent cannot be reached yet (try again later)
     */
    static SessionFollower resume(ResumeState state, Run<?, ?> run, EnvVars env, TaskListener listener, AgentSession session)
            throws IOException, InterruptedException {
        List<String> secrets = new ArrayList<>();
        if (state.tokenCredentialsId != null) {
            secrets.add(StringCredentialLookup.secret(run, state.tokenCredentialsId, "credentialsId"));
        }
        if (state.providerCredentialsId != null) {
            secrets.add(StringCredentialLookup.secret(run, state.providerCredentialsId, "providerCredentialsId"));
        }
        if (state.mcpReferences != null) {
            secrets.addAll(McpServersSetting.values(state.mcpReferences, run, env).values());
        }
        for (String name : state.secretVariables) {
            String value = env.get(name);
            if (value != null && !value.isBlank()) {
                secrets.add(value);
            }
        }
        Checkpoint checkpoint = readCheckpoint(run, state.invocationId);
        Path journal = journalFile(run, state.invocationId).toPath();
        if (!Files.exists(journal)) {
            Files.createFile(journal);
        }
        try (FileChannel channel = FileChannel.open(journal, StandardOpenOption.WRITE)) {
            if (channel.size() > checkpoint.journalBytes()) {
                channel.truncate(checkpoint.journalBytes());
            }
        }
        OutputStream append = Files.newOutputStream(journal, StandardOpenOption.APPEND);
        LiveSessions.started(run, state.invocationId, journal.toFile(), state);
        CopilotAutopilotRunAction.showLive(run);
        try {
            return engine(listener, append, state.agentTextInConsole).resume(duration(state.timeoutMillis), duration(state.inactivityMillis),
                    new SessionFollower.CallLimits(duration(state.toolTimeoutMillis), duration(state.startupTimeoutMillis),
                            state.verify, state.maxVerifyRounds),
                    new SessionFollower.Budget(state.maxPremiumRequests, state.maxTokens),
                    secrets, session, checkpoint, state.startedAtMillis);
        } catch (IOException | InterruptedException | RuntimeException e) {
            append.close();
            throw e;
        }
    }

    private static AutopilotEngine engine(TaskListener listener, OutputStream journal, boolean agentTextInConsole) {
        return AutopilotEngine.builder(new PrintStreamLogSink(listener.getLogger()))
                .journalTo(journal)
                .agentTextInLog(agentTextInConsole)
                .journalLimit(JOURNAL_LIMIT_MB * 1024 * 1024)
                .timings(TIMINGS)
                .build();
    }

    /** The options plus the build's secret variables that are set, so their values are masked and hidden from tools. */
    /** The task with the end of this build's console appended, masked ({@code includeBuildLog}). */
    private static AutopilotOptions withBuildLog(AutopilotOptions options, int lines, Run<?, ?> run, EnvVars env,
                                                 TaskListener listener) throws IOException {
        // more than asked for: the step's own lines are left out afterwards
        List<String> console = run.getLog(lines + BUILD_LOG_SLACK_LINES);
        BuildLogExcerpt excerpt = BuildLogExcerpt.append(options.prompt(), console, lines,
                SecretMasker.of(options.secretValues(env))::mask, "Jenkins build " + run.getFullDisplayName());
        AutopilotOptions with = options.withPrompt(excerpt.task());
        List<String> problems = with.validate();
        if (!problems.isEmpty()) {
            throw new AbortException(Messages.AutopilotStepRunner_InvalidOptions(String.join(" ", problems)));
        }
        listener.getLogger().println(Messages.AutopilotStepRunner_BuildLogIncluded(excerpt.lines(), excerpt.leftOutLines()));
        return with;
    }

    private static AutopilotOptions withSensitiveVariables(AutopilotOptions options, Collection<String> names, EnvVars env) {
        Set<String> add = new LinkedHashSet<>();
        for (String name : names) {
            if (name != null && VARIABLE_NAME.matcher(name).matches() && env.get(name) != null
                    && !options.secretEnvVars().contains(name)) {
                add.add(name);
            }
        }
        if (add.isEmpty()) {
            return options;
        }
        AutopilotOptions.Builder builder = options.toBuilder();
        add.forEach(builder::secretEnvVar);
        return builder.build();
    }

    /** Records the finished session on the build (its journal compressed) and says where to see it. */
    static SessionRecord record(Run<?, ?> run, String invocationId, SessionResult result, boolean agentTextPrivate,
                                TaskListener listener) {
        String journalName = journalFile(run, invocationId).getName();
        try {
            Path compressed = JournalFiles.compress(journalFile(run, invocationId).toPath());
            journalName = compressed.toFile().getName();
            SessionReportStore.get(compressed); // the session page's report, made now rather than at the first view
        } catch (IOException e) {
            listener.getLogger().println(Messages.AutopilotStepRunner_CannotCompressJournal(e.getMessage()));
        }
        deleteCheckpoint(run, invocationId);
        SessionRecord record = new SessionRecord(invocationId, journalName, result, agentTextPrivate);
        try {
            CopilotAutopilotRunAction.record(run, record);
        } catch (IOException e) {
            listener.getLogger().println(Messages.AutopilotStepRunner_CannotSave(e.getMessage()));
        } finally {
            LiveSessions.ended(run, invocationId);
        }
        try {
            listener.hyperlink("/" + run.getUrl() + CopilotAutopilotRunAction.URL_NAME + "/",
                    Messages.AutopilotStepRunner_DetailsLink());
            listener.getLogger().println();
        } catch (IOException e) {
            listener.getLogger().println(Messages.AutopilotStepRunner_DetailsLink());
        }
        return record;
    }

    /** What the outcome makes of the build, with the settings the session ran with. */
    static BuildVerdict verdict(SessionResult result, ResumeState settings) {
        if (settings == null) {
            return BuildVerdict.of(result.outcome(), ResultWhenIncomplete.FAILURE);
        }
        ResultWhenIncomplete whenIncomplete = ResultWhenIncomplete.parse(settings.resultWhenIncomplete);
        return BuildVerdict.of(result.outcome(), whenIncomplete,
                ResultWhenIncomplete.parse(settings.resultWhenBlocked, "resultWhenBlocked", whenIncomplete));
    }

    /** The build's failure message: the outcome and its reason, no stack trace. */
    static String failureMessage(SessionResult result) {
        return Messages.AutopilotStepRunner_Failed(result.outcome().name(), result.reason());
    }

    private static String githubToken(String credentialsId, String variable, boolean fromDefaults, Run<?, ?> run, EnvVars env)
            throws AbortException {
        if (credentialsId != null) {
            return StringCredentialLookup.secret(run, credentialsId, fromDefaults ? "credentialsId (global default)" : "credentialsId");
        }
        return variable != null ? env.get(variable) : null;
    }

    /** The CLI on the agent, resolved there (paths and files are the agent's). */
    private static CliExecutable locate(String configured, EnvVars env, Launcher launcher) throws IOException, InterruptedException {
        VirtualChannel channel = launcher.getChannel();
        if (channel == null) {
            throw new AbortException(Messages.AutopilotStepRunner_Offline());
        }
        try {
            return LocateCliCallable.executable(channel.call(new LocateCliCallable(configured, env.get("PATH"))));
        } catch (CliNotFoundException e) {
            throw new AbortException(e.getMessage());
        }
    }

    /**
     * What to hand the CLI locator: the step's {@code copilotPath}; else the named (or default) tool installation,
     * installed on this agent now if it has an installer; else {@code COPILOT_CLI} from the build's environment;
     * else null, to search the PATH.
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
            return TimeLimits.limit(INSTALL_TIMEOUT_MINUTES * 60, Messages.AutopilotStepRunner_Installing(installation.getName(),
                    node.getDisplayName()), () -> installation.forNode(node, listener).forEnvironment(env).getHome());
        }
        return env.get(CopilotCliInstallation.CLI_VARIABLE);
    }

    /** The agent's working directory, created if it does not exist yet (as {@code sh} creates the workspace). */
    private static FilePath workingDirectory(TaskSettings settings, FilePath workspace) throws IOException, InterruptedException {
        String relative;
        try {
            relative = WorkspacePaths.relative(settings.workingDirectory());
        } catch (IllegalArgumentException e) {
            throw new AbortException(e.getMessage());
        }
        FilePath dir = relative.isEmpty() ? workspace : workspace.child(relative);
        if (!dir.isDirectory()) {
            if (dir.exists()) {
                throw new AbortException(Messages.AutopilotStepRunner_NotADirectory(dir.getRemote()));
            }
            dir.mkdirs();
        }
        return dir;
    }

    /** The journal of one step invocation, under the build's folder on the controller. */
    static File journalFile(Run<?, ?> run, String invocationId) {
        File folder = new File(run.getRootDir(), JOURNAL_FOLDER);
        try {
            Files.createDirectories(folder.toPath());
        } catch (IOException e) {
            // reported by whoever writes the file
        }
        return SafeFileNames.resolveInside(folder.toPath(), invocationId + ".jsonl").toFile();
    }

    private static Path checkpointFile(Run<?, ?> run, String invocationId) {
        return SafeFileNames.resolveInside(new File(run.getRootDir(), JOURNAL_FOLDER).toPath(), invocationId + CHECKPOINT_SUFFIX);
    }

    /**
     * Notes how far the log and the journal got, rewriting the file in place (no new file or rename each second
     * for each session); a restart reads the newest whole checkpoint in it (see {@link CheckpointFile}).
     */
    static void saveCheckpoint(Run<?, ?> run, String invocationId, Checkpoint checkpoint) throws IOException {
        CheckpointFile.write(checkpointFile(run, invocationId), checkpoint);
    }

    static Checkpoint readCheckpoint(Run<?, ?> run, String invocationId) throws IOException {
        return CheckpointFile.read(checkpointFile(run, invocationId));
    }

    private static void deleteCheckpoint(Run<?, ?> run, String invocationId) {
        try {
            Files.deleteIfExists(checkpointFile(run, invocationId));
        } catch (IOException e) {
            // a stale checkpoint of a finished session is never read
        }
    }

    private static Long millis(Duration d) {
        return d == null ? null : d.toMillis();
    }

    private static Duration duration(Long millis) {
        return millis == null ? null : Duration.ofMillis(millis);
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
