package io.jenkins.plugins.copilotautopilot.core.command;

import java.util.Objects;
import java.util.function.Function;

/**
 * One problem with {@link AutopilotOptions}: which setting it is about, and a message that names settings the
 * way the caller's user knows them ({@link #message(Function)}).
 */
public final class OptionProblem {
    private final Setting setting;
    private final Function<Function<Setting, String>, String> text;

    OptionProblem(Setting setting, Function<Function<Setting, String>, String> text) {
        this.setting = Objects.requireNonNull(setting);
        this.text = Objects.requireNonNull(text);
    }

    /** The setting to change. */
    public Setting setting() {
        return setting;
    }

    /** The message, with every setting named by {@code names} (e.g. {@code --max-autopilot-continues}). */
    public String message(Function<Setting, String> names) {
        return text.apply(names);
    }

    /** The message with the Jenkins step's parameter names. */
    @Override
    public String toString() {
        return message(Setting::parameterName);
    }
}
