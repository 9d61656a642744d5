package io.jenkins.plugins.copilotautopilot.core.command;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One CLI invocation, ready to launch: program, arguments, the environment variables to set on top of
 * the inherited ones, the working directory. Arguments never hold a secret; the environment does, so
 * {@link #toString()} and {@link #display()} never print environment values.
 */
public final class CliCommand {
    /** Environment variable that marks every process of one run, so that all of them can be found and stopped. */
    public static final String RUN_MARKER_VARIABLE = "COPILOT_AUTOPILOT_RUN_ID";

    private final CliExecutable executable;
    private final List<String> arguments;
    private final Map<String, String> environment;
    private final String workingDirectory;
    private final AutopilotOptions options;

    CliCommand(CliExecutable executable, List<String> arguments, Map<String, String> environment,
               String workingDirectory, AutopilotOptions options) {
        this.executable = executable;
        this.arguments = List.copyOf(arguments);
        this.environment = Collections.unmodifiableMap(new LinkedHashMap<>(environment));
        this.workingDirectory = workingDirectory;
        this.options = options;
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

    public AutopilotOptions options() {
        return options;
    }

    /** The value of the run marker variable, unique to this command. */
    public String runId() {
        return environment.get(RUN_MARKER_VARIABLE);
    }

    /** The command line for a log: the prompt shortened, environment names only. */
    public String display() {
        StringBuilder out = new StringBuilder(executable.path());
        for (String arg : arguments) {
            out.append(' ');
            if (arg.startsWith("--prompt=")) {
                out.append("--prompt=<").append(options.prompt().length()).append(" characters>");
            } else {
                out.append(arg.contains(" ") ? "'" + arg + "'" : arg);
            }
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return "CliCommand[" + display() + ", env=" + environment.keySet() + ", dir=" + workingDirectory + "]";
    }
}
