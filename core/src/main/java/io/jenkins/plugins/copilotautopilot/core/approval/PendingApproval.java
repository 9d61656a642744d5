package io.jenkins.plugins.copilotautopilot.core.approval;

/**
 * A tool call that waits for a person: what the log and the pages show of it (masked), and until when it waits.
 *
 * @param id              the hook's name for the request (unique in the session)
 * @param tool            the tool's name
 * @param arguments       its arguments as the log shows them, masked and shortened
 * @param pattern         the {@code approveTools} pattern it matched
 * @param requestedAtMillis when the CLI asked (epoch milliseconds)
 * @param deadlineMillis  when nobody having decided denies it
 */
public record PendingApproval(String id, String tool, String arguments, String pattern, long requestedAtMillis,
                              long deadlineMillis) {
}
