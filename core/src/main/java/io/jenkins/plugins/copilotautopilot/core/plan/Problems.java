package io.jenkins.plugins.copilotautopilot.core.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * What is wrong with the settings of a session, each problem about one setting, in words a user can act on. Messages
 * name settings the way the caller's user knows them ({@link #messages(Function)}): the Jenkins step by its parameter
 * names, the runner by its options.
 */
public final class Problems {
    /** One problem: the setting to change and its message, built from the caller's names of settings. */
    public record Problem(Setting<?> setting, Function<Function<Setting<?>, String>, String> text) {
        public String message(Function<Setting<?>, String> names) {
            return text.apply(names);
        }
    }

    private final List<Problem> problems = new ArrayList<>();

    /** A problem whose message is the setting's name followed by {@code rest}. */
    public void add(Setting<?> setting, String rest) {
        problems.add(new Problem(setting, names -> names.apply(setting) + rest));
    }

    /** A problem whose message names settings itself. */
    public void add(Setting<?> setting, Function<Function<Setting<?>, String>, String> text) {
        problems.add(new Problem(setting, text));
    }

    /** A problem whose message names no setting. */
    public void fixed(Setting<?> setting, String message) {
        problems.add(new Problem(setting, names -> message));
    }

    public boolean isEmpty() {
        return problems.isEmpty();
    }

    public List<Problem> all() {
        return List.copyOf(problems);
    }

    /** The messages, settings named by {@code names}. */
    public List<String> messages(Function<Setting<?>, String> names) {
        List<String> messages = new ArrayList<>();
        for (Problem p : problems) {
            messages.add(p.message(names));
        }
        return messages;
    }

    /** The messages with the step's parameter names. */
    public List<String> messages() {
        return messages(Setting::name);
    }
}
