package io.jenkins.plugins.copilotautopilot.core.runner;

/**
 * One option of the runner as a user reads it, in {@code --help} and in the README's table: how it is written, what it
 * does and its default. Code in {@code meaning} and {@code byDefault} is marked as in Markdown ({@code `write`}).
 *
 * @param group the heading {@code --help} lists it under
 * @param shortName its one-letter form ({@code -p}), or null
 * @param name its long form ({@code --prompt}), as {@link OptionValues} reads it
 * @param argument what follows it ({@code TEXT}, or {@code =false} for a flag given to turn something off), or null
 * @param meaning what it does
 * @param byDefault what happens without it, or null where nothing needs saying (a repeatable option, a flag's action)
 */
record RunnerOption(String group, String shortName, String name, String argument, String meaning, String byDefault) {
    /** The option as typed with its argument: {@code --prompt TEXT}, {@code --record-changes=false}. */
    String usage() {
        if (argument == null) {
            return name;
        }
        return argument.startsWith("=") ? name + argument : name + " " + argument;
    }
}
