package io.jenkins.plugins.copilotautopilot;

import java.util.ArrayList;
import java.util.List;
import net.sf.json.JSONArray;
import net.sf.json.JSONObject;

/**
 * List settings ({@code allowTools}, {@code denyTools}, {@code addDirs}, {@code secretEnvVars}) are lists
 * in Pipeline and one-entry-per-line text areas in the configuration form.
 */
final class FormLists {
    static final String[] LIST_FIELDS = {"allowTools", "denyTools", "addDirs", "secretEnvVars"};

    private FormLists() {
    }

    /** The entries of a text area: one per line, trimmed, blank lines dropped. */
    static List<String> lines(String text) {
        List<String> out = new ArrayList<>();
        if (text != null) {
            for (String line : text.split("\\R")) {
                if (!line.isBlank()) {
                    out.add(line.strip());
                }
            }
        }
        return out;
    }

    /** A list for a text area. */
    static String text(List<String> entries) {
        return entries == null ? "" : String.join("\n", entries);
    }

    /** Turns the text-area strings of a submitted form into JSON arrays, so they bind to the list setters. */
    static JSONObject textAreasToArrays(JSONObject formData) {
        for (String field : LIST_FIELDS) {
            Object value = formData.opt(field);
            if (value instanceof String text) {
                JSONArray array = new JSONArray();
                array.addAll(lines(text));
                formData.put(field, array);
            }
        }
        return formData;
    }

    /** An immutable copy without blank entries; null stays empty. */
    static List<String> clean(List<String> entries) {
        List<String> out = new ArrayList<>();
        if (entries != null) {
            for (String entry : entries) {
                if (entry != null && !entry.isBlank()) {
                    out.add(entry.strip());
                }
            }
        }
        return List.copyOf(out);
    }
}
