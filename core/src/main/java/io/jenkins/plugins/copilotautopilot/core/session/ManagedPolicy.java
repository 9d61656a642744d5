package io.jenkins.plugins.copilotautopilot.core.session;

/**
 * What an organisation's managed setting changed in a session ({@code session.managed_settings_enforced}), in the words
 * of a {@code WARNING} line. The CLI goes on without saying so anywhere else: tool calls it would have run are denied.
 */
public final class ManagedPolicy {
    private ManagedPolicy() {
    }

    /**
     * E.g. {@code WARNING: your organisation's policy (permissions.disableBypassPermissionsMode) blocks auto-approval:
     * tool calls that need approval, such as writes, will be denied.}
     */
    public static String warning(String setting, String escalation, boolean failClosed) {
        String which = setting == null || setting.isBlank() ? "its managed settings" : setting;
        return "WARNING: your organisation's policy (" + which + ")" + (failClosed ? ", applied because it could not be read," : "")
                + " " + changed(escalation) + ".";
    }

    private static String changed(String escalation) {
        if (escalation == null) {
            return "overrides the tool permissions this step asked for: tool calls may be denied";
        }
        return switch (escalation) {
            case "approve_all", "allow_all" -> "blocks auto-approval: tool calls that need approval, such as writes, will be denied";
            case "unrestricted_paths" -> "blocks access to paths outside the allowed directories: such tool calls will be denied";
            case "unrestricted_urls" -> "blocks access to any URL: fetches not allowed one by one will be denied";
            case "server_wide_mcp_approval" -> "blocks approving all tools of an MCP server at once: their calls will be denied";
            case "assisted_approval" -> "blocks assisted approval: tool calls that need approval will be denied";
            default -> "blocks '" + escalation + "': tool calls that need it will be denied";
        };
    }
}
