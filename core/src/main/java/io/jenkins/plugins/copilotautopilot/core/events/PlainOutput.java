package io.jenkins.plugins.copilotautopilot.core.events;

/**
 * A stdout line that is not a JSON event (a warning the CLI printed, a truncated line, ...). Kept so
 * that nothing the CLI said is lost.
 *
 * @param raw           the text
 * @param originalBytes the line's full length in bytes
 * @param truncated     whether {@code raw} is only the beginning of a longer line
 * @param eventType     for a truncated event line, its {@code type} if it could be read, else null
 */
public record PlainOutput(String raw, long originalBytes, boolean truncated, String eventType) implements StreamLine {
}
