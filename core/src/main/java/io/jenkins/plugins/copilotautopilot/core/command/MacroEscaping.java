package io.jenkins.plugins.copilotautopilot.core.command;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Jenkins launchers expand {@code $VAR} and {@code ${VAR}} in every command argument and environment
 * value, and turn {@code $$} into {@code $}. A prompt or a secret must reach the CLI unchanged, so every
 * {@code $} is doubled before it goes through such a launcher.
 */
public final class MacroEscaping {
    private MacroEscaping() {
    }

    public static String escape(String value) {
        return value == null ? null : value.replace("$", "$$");
    }

    public static List<String> escapeAll(List<String> values) {
        List<String> out = new ArrayList<>(values.size());
        values.forEach(v -> out.add(escape(v)));
        return out;
    }

    public static Map<String, String> escapeValues(Map<String, String> env) {
        Map<String, String> out = new LinkedHashMap<>();
        env.forEach((k, v) -> out.put(k, escape(v)));
        return out;
    }
}
