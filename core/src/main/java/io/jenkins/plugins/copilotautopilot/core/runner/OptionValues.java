package io.jenkins.plugins.copilotautopilot.core.runner;

import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.plan.Setting;

import io.jenkins.plugins.copilotautopilot.core.runner.RunnerArguments.UsageException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The runner's command line read against its table of options: {@code --name value}, {@code --name=value},
 * {@code -p value}, {@code -p=value}; flags alone or as {@code --flag=true}/{@code --flag=false}. Repeatable
 * options collect their values; any other option may be given once.
 */
final class OptionValues {
    private enum Kind { FLAG, VALUE, REPEATABLE }

    private record Spec(String name, Kind kind) {
    }

    private static final Map<String, Spec> OPTIONS = new HashMap<>();

    static {
        add(Kind.FLAG, "--help", "-h");
        add(Kind.FLAG, "--version");
        add(Kind.VALUE, "--prompt", "-p");
        add(Kind.VALUE, "--prompt-file");
        add(Kind.VALUE, "--dir", "-C");
        for (String name : List.of("--copilot", "--mcp-config", "--session", "--state-dir", "--journal", "--timeline", "--changes",
                "--output-schema", "--output-file", "--issues-file")) {
            add(Kind.VALUE, name);
        }
        // a session's settings, as the catalog names their options
        for (Setting<?> setting : SessionSettings.all()) {
            if (setting.option() != null) {
                io.jenkins.plugins.copilotautopilot.core.plan.Kind.Control control = setting.kind().control();
                add(control == io.jenkins.plugins.copilotautopilot.core.plan.Kind.Control.FLAG ? Kind.FLAG
                        : control == io.jenkins.plugins.copilotautopilot.core.plan.Kind.Control.LIST ? Kind.REPEATABLE : Kind.VALUE,
                        setting.option());
            }
        }
    }

    private final Map<String, List<String>> values = new HashMap<>();

    private OptionValues() {
    }

    /** Every option read here, by its long name. */
    static java.util.SortedSet<String> names() {
        java.util.SortedSet<String> names = new java.util.TreeSet<>();
        OPTIONS.values().forEach(spec -> names.add(spec.name()));
        return names;
    }

    private static void add(Kind kind, String name, String... aliases) {
        Spec spec = new Spec(name, kind);
        OPTIONS.put(name, spec);
        for (String alias : aliases) {
            OPTIONS.put(alias, spec);
        }
    }

    static OptionValues read(String[] args) throws UsageException {
        OptionValues read = new OptionValues();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.length() < 2 || arg.charAt(0) != '-') {
                throw new UsageException("unexpected argument '" + arg + "' (put the task in --prompt)");
            }
            int equals = arg.indexOf('=');
            String typed = equals > 0 ? arg.substring(0, equals) : arg;
            String inline = equals > 0 ? arg.substring(equals + 1) : null;
            Spec spec = OPTIONS.get(typed);
            if (spec == null) {
                throw new UsageException("unknown option " + typed);
            }
            String value;
            if (spec.kind() == Kind.FLAG) {
                value = inline == null ? "true" : bool(typed, inline);
            } else if (inline != null) {
                value = inline;
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new UsageException(typed + " needs a value");
            }
            if (spec.kind() != Kind.FLAG && value.isBlank()) {
                // `--verify="$CHECK"` with CHECK unset must not quietly run without the check
                throw new UsageException(typed + " was given an empty value (an unset variable?): give it a value, or leave"
                        + " the option out");
            }
            List<String> list = read.values.computeIfAbsent(spec.name(), k -> new ArrayList<>());
            if (spec.kind() != Kind.REPEATABLE && !list.isEmpty()) {
                throw new UsageException(spec.name() + " is given twice; give it once");
            }
            list.add(value);
        }
        return read;
    }

    private static String bool(String typed, String value) throws UsageException {
        String v = value.toLowerCase(Locale.ROOT);
        if (!v.equals("true") && !v.equals("false")) {
            throw new UsageException(typed + " takes no value, or =true or =false; got '" + value + "'");
        }
        return v;
    }

    /** The value of a once-only option, or {@code fallback} when it was not given. */
    String last(String name, String fallback) {
        List<String> list = values.get(name);
        return list == null ? fallback : list.get(list.size() - 1);
    }

    /** A flag's value, or {@code fallback} when it was not given. */
    boolean flag(String name, boolean fallback) {
        String value = last(name, null);
        return value == null ? fallback : Boolean.parseBoolean(value);
    }

    /** Whether the option was given at all. */
    boolean has(String name) {
        return values.containsKey(name);
    }

    /** Every value of a repeatable option, in order. */
    List<String> all(String name) {
        return values.getOrDefault(name, List.of());
    }
}
