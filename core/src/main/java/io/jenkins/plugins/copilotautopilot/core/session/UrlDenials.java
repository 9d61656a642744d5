package io.jenkins.plugins.copilotautopilot.core.session;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which URLs a denied tool call was refused, in the words of CLI 1.0.102: a URL rule names itself
 * ({@code … due to the following rules: `url(https://host)`}); a URL that no rule allows is refused like a path
 * (for want of a user to ask), so such a denial counts as the URLs the CLI found in the command.
 */
public final class UrlDenials {
    /** Distinct URLs kept per session; the count goes on. */
    public static final int MAX_KEPT = 20;
    private static final Pattern RULE = Pattern.compile("`url\\(([^)`]*)\\)`");
    /** CLI 1.0.102's words for a denial no rule made (a rule's say "due to the following rules"). */
    private static final String UNATTENDED = "Permission denied because no interactive user response was available";

    private UrlDenials() {
    }

    /** Whether the CLI denied for want of a user to ask (a path or URL no rule allows), not by a rule. */
    public static boolean unattended(String error) {
        return error != null && error.startsWith(UNATTENDED);
    }

    /** The URLs the CLI saw in a shell command ({@code shellToolInfo.possiblePaths} of {@code tool.execution_start}). */
    static List<String> urlsIn(JsonNode startData) {
        List<String> urls = new ArrayList<>();
        for (JsonNode path : startData.path("shellToolInfo").path("possiblePaths")) {
            String p = path.asText("");
            if (p.regionMatches(true, 0, "http://", 0, 7) || p.regionMatches(true, 0, "https://", 0, 8)) {
                urls.add(p);
            }
        }
        return urls;
    }

    /**
     * The URLs a call was denied for, or an empty list when its denial was not about URLs.
     *
     * @param error the CLI's denial message
     * @param commandUrls the URLs in the call's command
     */
    static List<String> denied(String error, List<String> commandUrls) {
        if (error == null) {
            return List.of();
        }
        Set<String> urls = new LinkedHashSet<>();
        Matcher m = RULE.matcher(error);
        while (m.find()) {
            urls.add(m.group(1));
        }
        if (urls.isEmpty() && unattended(error)) {
            urls.addAll(commandUrls);
        }
        return List.copyOf(urls);
    }
}
