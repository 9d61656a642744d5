package io.jenkins.plugins.copilotautopilot.core.prepare;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.command.GithubTokens;
import io.jenkins.plugins.copilotautopilot.core.command.McpServers;
import io.jenkins.plugins.copilotautopilot.core.command.SessionTask;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import io.jenkins.plugins.copilotautopilot.core.otel.TraceParent;
import io.jenkins.plugins.copilotautopilot.core.output.AnswerRequest;
import io.jenkins.plugins.copilotautopilot.core.output.OutputSchema;
import io.jenkins.plugins.copilotautopilot.core.plan.InvalidSettingsException;
import io.jenkins.plugins.copilotautopilot.core.plan.PlanDraft;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.plan.SettingValues;
import io.jenkins.plugins.copilotautopilot.core.build.BuildLogExcerpt;
import io.jenkins.plugins.copilotautopilot.core.build.GithubTokenSource;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns what a step or the runner asks for into the plan and the task a session runs with, in one step: the settings
 * merged with the administrator's defaults, the files they name read ({@link InlineOrFile}), the secrets looked up, the
 * build's console appended, the restriction of an untrusted change request applied and tracing decided. Everything is
 * checked here, once: every problem is gathered, one line each in the caller's words ({@link Wording}), and the session
 * is refused with all of them or prepared; the plan is not changed after ({@link PlanDraft#make()}). What is looked up
 * where the session runs comes from the caller ({@link Lookups}).
 */
public final class SessionPreparation {
    /** The most a configuration of MCP servers may hold. */
    public static final int MAX_MCP_SERVERS_BYTES = 256 * 1024;
    static final InlineOrFile.Limits TASK = new InlineOrFile.Limits(SessionSettings.MAX_PROMPT_BYTES, true);
    static final InlineOrFile.Limits SCHEMA = new InlineOrFile.Limits(OutputSchema.MAX_SCHEMA_CHARS, false);
    static final InlineOrFile.Limits MCP_SERVERS = new InlineOrFile.Limits(MAX_MCP_SERVERS_BYTES, false);
    /** Console lines read beyond those asked for by {@code includeBuildLog}, for the plugin's own lines left out. */
    private static final int BUILD_LOG_SLACK_LINES = 2_000;
    private static final Pattern VARIABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /**
     * What is asked for: the task as written (null when {@code promptFile} names it), the settings as given, and the
     * administrator's defaults they are merged with.
     */
    public record Asked(String prompt, SettingValues settings, SettingValues defaults) {
    }

    /**
     * Where it is asked: the environment the session starts in, the names of its variables whose values are secrets
     * ({@code withCredentials}), the untrusted change request the session is restricted for (null: none), and whether
     * the build's trace is exported (then a session under it keeps its spans unless {@code otel} says otherwise).
     */
    public record Situation(Map<String, String> environment, Collection<String> sensitiveVariables, String restrictedFor,
                            boolean tracesExported) {
    }

    /**
     * A session ready to start: its plan, its task, where its GitHub token comes from, the references of its MCP
     * servers' configuration (to look their values up again after a restart), and what to tell the user.
     */
    public record Prepared(SessionPlan plan, SessionTask task, GithubTokenSource tokenSource, List<String> mcpReferences,
                           List<Note> notes) {
    }

    /** A session that cannot run: every problem, one line each, and what was noted before they were found. */
    public static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        private final List<String> problems;
        private final transient List<Note> notes;
        private final boolean credentialsOnly;

        Refused(List<String> problems, List<Note> notes, boolean credentialsOnly) {
            super(String.join(" ", problems));
            this.problems = List.copyOf(problems);
            this.notes = List.copyOf(notes);
            this.credentialsOnly = credentialsOnly;
        }

        public List<String> problems() {
            return problems;
        }

        public List<Note> notes() {
            return notes;
        }

        /** Whether every problem is with the credentials (none, or one that cannot be used), none with the settings. */
        public boolean credentialsOnly() {
            return credentialsOnly;
        }
    }

    private final Asked asked;
    private final Situation situation;
    private final Lookups lookups;
    private final Wording wording;
    private final List<String> problems = new ArrayList<>();
    private final List<Note> notes = new ArrayList<>();
    private int credentialProblems;
    /** Whether the task's text is known: not when the file that holds it could not be read, or both were given. */
    private boolean taskKnown = true;
    private final List<String> mcpReferences = new ArrayList<>();
    /** Said after the restriction, once the session can run. */
    private Note buildLogIncluded;

    private SessionPreparation(Asked asked, Situation situation, Lookups lookups, Wording wording) {
        this.asked = asked;
        this.situation = situation;
        this.lookups = lookups;
        this.wording = wording;
    }

    /**
     * The session's plan and task, or every reason it cannot run.
     *
     * @throws IOException when a lookup fails for a reason of its own (an agent that cannot be reached)
     */
    public static Prepared prepare(Asked asked, Situation situation, Lookups lookups, Wording wording)
            throws Refused, IOException, InterruptedException {
        return new SessionPreparation(asked, situation, lookups, wording).prepare();
    }

    private Prepared prepare() throws Refused, IOException, InterruptedException {
        SessionPlan.Resolution resolution = SessionPlan.resolve(asked.settings(), asked.defaults());
        PlanDraft draft = new PlanDraft(resolution.plan());
        SessionPlan resolved = draft.current();
        if (!resolved.fromDefaults().isEmpty()) {
            notes.add(new Note.FromDefaults(resolved.fromDefaults()));
        }
        boolean restricted = situation.restrictedFor() != null;
        String prompt = taskText(resolved, restricted);
        problems.addAll(resolution.problems().messages(wording::name));
        readSchema(draft, restricted);
        SessionTask task = SessionTask.of(prompt).withMcpServers(restricted ? null : mcpServers(resolved));
        GithubTokenSource tokenSource = GithubTokenSource.of(resolved, situation.environment());
        task = withCredentials(task, resolved, tokenSource, resolution.problems().isEmpty());
        // a session refused already loads no kept session (which says it continues one, and drops one that expired)
        boolean refusedSoFar = !problems.isEmpty() || taskKnown && !task.problems().isEmpty();
        String session = resolved.get(SessionSettings.SESSION);
        task = session == null || refusedSoFar ? task : task.withKeptState(keptState(session));
        task = withBuildLog(task, resolved);
        if (taskKnown) {
            problems.addAll(0, task.problems()); // the task first, as a user reads the step
        }
        if (!problems.isEmpty()) {
            throw new Refused(problems, notes, credentialProblems == problems.size());
        }
        SessionPlan plan = complete(draft, restricted);
        for (String name : plan.list(SessionSettings.TOOL_SECRETS)) {
            if (situation.environment().get(name) == null) {
                notes.add(new Note.ToolSecretUnset(name));
            }
        }
        if (buildLogIncluded != null) {
            notes.add(buildLogIncluded);
        }
        if (!tokenSource.isNone()) {
            notes.add(new Note.TokenSource(wording.tokenSource(tokenSource)));
        }
        return new Prepared(plan, task, tokenSource, List.copyOf(mcpReferences), List.copyOf(notes));
    }

    /** The plan with what the checks did not need: the build's secret variables, the restriction, tracing; made. */
    private SessionPlan complete(PlanDraft draft, boolean restricted) {
        draft.addSecretVariables(setSensitiveVariables());
        if (restricted) {
            notes.add(new Note.Restricted(situation.restrictedFor(), draft.restrictForUntrusted()));
        }
        if (!draft.current().isSet(SessionSettings.OTEL) && situation.tracesExported()
                && TraceParent.parse(situation.environment().get("TRACEPARENT")) != null) {
            draft.traced();
            notes.add(new Note.Traced());
        }
        return draft.make();
    }

    /** The task's text: the prompt, or the text of {@code promptFile} (from the trusted revision for a restricted session). */
    private String taskText(SessionPlan plan, boolean restricted) throws IOException, InterruptedException {
        String file = plan.get(SessionSettings.PROMPT_FILE);
        if (file == null) {
            return asked.prompt();
        }
        if (asked.prompt() != null && !asked.prompt().isBlank()) {
            problems.add("Give the task as prompt or as promptFile, not both.");
            taskKnown = false;
            return null;
        }
        try {
            String text = InlineOrFile.file(file, TASK, lookups.files(SessionSettings.PROMPT_FILE, restricted),
                    wording.file(SessionSettings.PROMPT_FILE));
            notes.add(new Note.TaskFromFile(file, text.length(), restricted));
            return text;
        } catch (Unusable e) {
            problems.add(e.getMessage());
            taskKnown = false;
            return null;
        }
    }

    /** {@code outputSchema} as its text (a file it names read), checked as a JSON Schema. */
    private void readSchema(PlanDraft draft, boolean restricted) throws IOException, InterruptedException {
        String schema = draft.current().get(SessionSettings.OUTPUT_SCHEMA);
        if (schema != null && InlineOrFile.namesFile(schema)) {
            try {
                draft.schemaText(InlineOrFile.text(schema, SCHEMA, lookups.files(SessionSettings.OUTPUT_SCHEMA, restricted),
                        wording.file(SessionSettings.OUTPUT_SCHEMA)));
            } catch (Unusable e) {
                problems.add(e.getMessage());
                return;
            }
        }
        String problem = AnswerRequest.problem(draft.current(), wording::name);
        if (problem != null) {
            problems.add(problem);
        }
    }

    /** The MCP servers with their references' values put in, or null; what they refer to is kept. */
    private McpServers.Resolved mcpServers(SessionPlan plan) throws IOException, InterruptedException {
        String setting = plan.get(SessionSettings.MCP_SERVERS);
        if (setting == null) {
            return null;
        }
        try {
            String text = lookups.mcpServersJson(InlineOrFile.text(setting, MCP_SERVERS,
                    lookups.files(SessionSettings.MCP_SERVERS, false), wording.file(SessionSettings.MCP_SERVERS)));
            mcpReferences.addAll(McpServers.references(text));
            return McpServers.resolve(text, mcpValues(mcpReferences, lookups, situation.environment(),
                    wording.name(SessionSettings.MCP_SERVERS)));
        } catch (Unusable e) {
            problems.add(e.getMessage());
        } catch (InvalidSettingsException e) {
            // McpServers names the setting by its parameter: the caller's name goes in its stead
            String name = wording.name(SessionSettings.MCP_SERVERS);
            e.problems().forEach(p -> problems.add(p.startsWith("mcpServers") ? name + p.substring("mcpServers".length()) : p));
        }
        return null;
    }

    /**
     * The values of an MCP configuration's references: credentials as the session may use them, variables of {@code
     * environment}; a reference without one is left out (the configuration's resolution names it).
     */
    public static Map<String, String> mcpValues(Collection<String> references, Credentials credentials,
                                                Map<String, String> environment, String parameter) throws Unusable {
        Map<String, String> values = new HashMap<>();
        for (String reference : references) {
            String id = reference.substring(reference.indexOf(':') + 1);
            String value = reference.startsWith("credentials:") ? credentials.credential(id, parameter) : environment.get(id);
            if (value != null) {
                values.put(reference, value);
            }
        }
        return values;
    }

    /**
     * The task with the GitHub token and the provider's key; a credential that cannot be used is a problem, and so is
     * none at all when the settings are fine (an own model provider set wrong is the problem then).
     */
    private SessionTask withCredentials(SessionTask task, SessionPlan plan, GithubTokenSource source, boolean settingsFine) {
        boolean usable = true;
        String token = null;
        String providerApiKey = null;
        try {
            token = source.credentialsId() != null
                    ? lookups.credential(source.credentialsId(), wording.name(SessionSettings.CREDENTIALS_ID)
                            + (source.fromDefaults() ? " (global default)" : ""))
                    : source.variable() != null ? situation.environment().get(source.variable()) : null;
        } catch (Unusable e) {
            credentialProblem(e.getMessage());
            usable = false;
        }
        boolean ownProvider = plan.get(SessionSettings.PROVIDER_BASE_URL) != null;
        String providerCredentialsId = plan.get(SessionSettings.PROVIDER_CREDENTIALS_ID);
        try {
            providerApiKey = ownProvider || providerCredentialsId != null ? lookups.providerApiKey(providerCredentialsId) : null;
        } catch (Unusable e) {
            credentialProblem(e.getMessage());
        }
        SessionTask with = task.withGithubToken(token).withProviderApiKey(providerApiKey);
        if (usable && settingsFine && with.githubToken() == null && !ownProvider) { // the settings may be what is missing
            credentialProblem(wording.noCredentials());
        }
        String tokenProblem = ownProvider ? null : GithubTokens.problem(with.githubToken(), wording.tokenSource(source));
        if (tokenProblem != null) {
            credentialProblem(tokenProblem);
        }
        return with;
    }

    private void credentialProblem(String problem) {
        problems.add(problem);
        credentialProblems++;
    }

    private byte[] keptState(String session) throws IOException, InterruptedException {
        try {
            return lookups.keptState(session);
        } catch (Unusable e) {
            problems.add(e.getMessage());
            return null;
        }
    }

    /** The task with the end of the build's console appended, masked ({@code includeBuildLog}), when it can run so far. */
    private SessionTask withBuildLog(SessionTask task, SessionPlan plan) throws IOException {
        Integer lines = plan.get(SessionSettings.INCLUDE_BUILD_LOG);
        Lookups.Console console = lookups.console();
        if (lines == null || lines == 0 || console == null || !problems.isEmpty() || task.prompt() == null || task.prompt().isBlank()) {
            return task;
        }
        // more than asked for: the plugin's own lines are left out afterwards
        List<String> read = console.lastLines(lines + BUILD_LOG_SLACK_LINES);
        Set<String> secretVariables = new LinkedHashSet<>(plan.list(SessionSettings.SECRET_ENV_VARS));
        secretVariables.addAll(setSensitiveVariables());
        secretVariables.addAll(plan.list(SessionSettings.TOOL_SECRETS));
        SecretMasker masker = SecretMasker.of(CliCommand.secretValues(task.secretValues(), secretVariables, situation.environment()));
        BuildLogExcerpt excerpt = BuildLogExcerpt.append(task.prompt(), read, lines, masker::mask, console.name());
        buildLogIncluded = new Note.BuildLogIncluded(excerpt.lines(), excerpt.leftOutLines());
        return task.withPrompt(excerpt.task());
    }

    /** The build's secret variables that are set: masked, and hidden from tools. */
    private List<String> setSensitiveVariables() {
        List<String> set = new ArrayList<>();
        for (String name : situation.sensitiveVariables()) {
            if (name != null && VARIABLE_NAME.matcher(name).matches() && situation.environment().get(name) != null) {
                set.add(name);
            }
        }
        return set;
    }
}
