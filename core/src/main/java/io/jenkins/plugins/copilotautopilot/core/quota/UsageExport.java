package io.jenkins.plugins.copilotautopilot.core.quota;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The usage page's rows as CSV (for a spreadsheet) and as JSON (for scripts). */
public final class UsageExport {
    private static final ObjectMapper JSON = new ObjectMapper();

    private UsageExport() {
    }

    public static String csv(List<UsageLedger.DayUsage> rows) {
        StringBuilder out = new StringBuilder("day,job,model,aiCredits,tokens,premiumRequests,sessions,sessionsWithoutAiCredits,outcomes\n");
        for (UsageLedger.DayUsage r : rows) {
            Double credits = r.knownAiCredits();
            out.append(r.day()).append(',').append(field(r.job())).append(',').append(field(r.model())).append(',')
                    .append(credits == null ? "" : io.jenkins.plugins.copilotautopilot.core.text.Texts.number(Math.round(credits * 1e9) / 1e9)).append(',')
                    .append(r.tokens()).append(',').append(io.jenkins.plugins.copilotautopilot.core.text.Texts.number(r.premiumRequests()))
                    .append(',').append(r.sessions()).append(',').append(r.sessionsWithoutAiCredits())
                    .append(',').append(field(outcomes(r.outcomes()))).append('\n');
        }
        return out.toString();
    }

    public static String json(List<UsageLedger.DayUsage> rows) {
        ArrayNode array = JSON.createArrayNode();
        for (UsageLedger.DayUsage r : rows) {
            ObjectNode row = array.addObject().put("day", r.day().toString()).put("job", r.job()).put("model", r.model())
                    .put("aiCredits", r.knownAiCredits()).put("tokens", r.tokens()).put("premiumRequests", r.premiumRequests())
                    .put("sessions", r.sessions()).put("sessionsWithoutAiCredits", r.sessionsWithoutAiCredits());
            ObjectNode o = row.putObject("outcomes");
            new java.util.TreeMap<>(r.outcomes()).forEach(o::put); // in the same order after a restart
        }
        return array.toString();
    }

    private static String outcomes(Map<String, Integer> outcomes) {
        return new java.util.TreeMap<>(outcomes).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(";")); // by name: the same after a restart
    }

    /**
     * A CSV field: quoted when it holds a separator, a quote or a line break; a leading {@code = + - @} (a formula to a
     * spreadsheet) is defused with a quote mark, as job names are user text.
     */
    static String field(String value) {
        String v = value == null ? "" : value;
        if (!v.isEmpty() && "=+-@\t\r".indexOf(v.charAt(0)) >= 0) {
            v = "'" + v;
        }
        if (v.indexOf(',') >= 0 || v.indexOf('"') >= 0 || v.indexOf('\n') >= 0 || v.indexOf('\r') >= 0) {
            v = '"' + v.replace("\"", "\"\"") + '"';
        }
        return v;
    }
}
