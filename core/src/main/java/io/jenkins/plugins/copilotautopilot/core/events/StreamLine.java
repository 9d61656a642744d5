package io.jenkins.plugins.copilotautopilot.core.events;

/** One line of the CLI's standard output: an event, or anything else the CLI printed. */
public sealed interface StreamLine permits CliEvent, PlainOutput {
    /** The line as received (after UTF-8 decoding, possibly truncated). */
    String raw();
}
