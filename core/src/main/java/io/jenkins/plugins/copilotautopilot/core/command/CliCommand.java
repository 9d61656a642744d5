package io.jenkins.plugins.copilotautopilot.core.command;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;

/**
 * One CLI invocation, ready to launch: program, arguments, the environment variables to set on top of
 * the inherited ones, the working directory and the control folder it runs from. The task reaches the CLI on
 * its standard input. Arguments never hold a secret; the environment does, so {@link #toString()} and
 * {@link #display()} never print environment values.
 */
public final class CliCommand {
    /** Environment variable that marks every process of one run, so that all of them can be found and stopped. */
    public static final String RUN_MARKER_VARIABLE = "COPILOT_AUTOPILOT_RUN_ID";
    /** The CLI's private {@code COPILOT_HOME}, inside the control folder (the launch script sets it). */
    public static final String COPILOT_HOME_FOLDER = "copilot-home";

    private final CliExecutable executable;
    private final List<String> arguments;
    private final Map<String, String> environment;
    private final String workingDirectory;
    private final String launchFolder;
    private final Set<String> secretVariables;
    private final Set<String> hiddenFromTools;
    private final SessionPlan plan;
    private final SessionTask task;

    CliCommand(CliExecutable executable, List<String> arguments, Map<String, String> environment,
               String workingDirectory, String launchFolder, Set<String> secretVariables, Set<String> hiddenFromTools,
               SessionPlan plan, SessionTask task) {
        this.executable = executable;
        this.arguments = List.copyOf(arguments);
        this.environment = Collections.unmodifiableMap(new LinkedHashMap<>(environment));
        this.workingDirectory = workingDirectory;
        this.launchFolder = launchFolder;
        this.secretVariables = Collections.unmodifiableSet(new LinkedHashSet<>(secretVariables));
        this.hiddenFromTools = Collections.unmodifiableSet(new LinkedHashSet<>(hiddenFromTools));
        this.plan = plan;
        this.task = task;
    }

    public CliExecutable executable() {
        return executable;
    }

    /** The arguments after the program. */
    public List<String> arguments() {
        return arguments;
    }

    /** Program and arguments, for a process launcher. */
    public List<String> commandLine() {
        List<String> all = new ArrayList<>(arguments.size() + 1);
        all.add(executable.path());
        all.addAll(arguments);
        return all;
    }

    /** Variables to set in the CLI's environment (secrets among them). */
    public Map<String, String> environment() {
        return environment;
    }

    public String workingDirectory() {
        return workingDirectory;
    }

    /**
     * The folder for the launch files (see {@code ControlFolder}), on the machine that runs the CLI: the runner's
     * control folder too; in Jenkins a folder of its own, emptied by the launch script.
     */
    public String launchFolder() {
        return launchFolder;
    }

    /**
     * The variables whose values are secrets: ours (token, API key), the options' {@code secretEnvVars}, and
     * every GitHub token variable present in the inherited environment. Listed in {@code --secret-env-vars},
     * so the CLI keeps them from the agent's tools, and masked everywhere.
     */
    public Set<String> secretVariables() {
        return secretVariables;
    }

    /**
     * The values to mask in this command's session: the options' secrets (token, API key, MCP values) and what the
     * secret variables hold in the environment the CLI inherits.
     */
    public List<String> secretValues(Map<String, String> inheritedEnvironment) {
        return secretValues(task.secretValues(), secretVariables, inheritedEnvironment);
    }

    /**
     * As {@link #secretValues(Map)}, for a command built earlier: the task's secret values ({@link SessionTask#secretValues()})
     * and what the secret variables hold in the inherited environment.
     */
    public static List<String> secretValues(List<String> taskSecrets, Set<String> secretVariables, Map<String, String> inheritedEnvironment) {
        List<String> secrets = new ArrayList<>(taskSecrets);
        for (String name : secretVariables) {
            String value = inheritedEnvironment.get(name);
            if (value != null && !value.isBlank()) {
                secrets.add(value);
            }
        }
        return secrets;
    }

    /** Each secret variable that has a value, with it (set here, else inherited), in order. */
    public Map<String, String> secretsByVariable(Map<String, String> inheritedEnvironment) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String name : secretVariables) {
            String value = environment.containsKey(name) ? environment.get(name) : inheritedEnvironment.get(name);
            if (value != null) {
                values.put(name, value);
            }
        }
        return values;
    }

    /** The secret variables the CLI keeps from its tools ({@code --secret-env-vars}): all but the tool secrets. */
    public Set<String> hiddenFromTools() {
        return hiddenFromTools;
    }

    /** The session's settings, resolved: no secret among them. */
    public SessionPlan plan() {
        return plan;
    }

    /** The task's text and what travels beside the plan (secrets, a kept state). */
    public SessionTask task() {
        return task;
    }

    /** The value of the run marker variable, unique to this command. */
    public String runId() {
        return environment.get(RUN_MARKER_VARIABLE);
    }

    /** The command line for a log, environment names only; the task is on standard input. */
    public String display() {
        StringBuilder out = new StringBuilder(executable.path().isEmpty() ? "copilot" : executable.path());
        for (String arg : arguments) {
            out.append(' ').append(arg.contains(" ") ? "'" + arg + "'" : arg);
        }
        return out.append(" < (the task: ").append(task.prompt().length()).append(" characters)").toString();
    }

    @Override
    public String toString() {
        return "CliCommand[" + display() + ", env=" + environment.keySet() + ", dir=" + workingDirectory + "]";
    }
}
