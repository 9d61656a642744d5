package io.jenkins.plugins.copilotautopilot.step;

import io.jenkins.plugins.copilotautopilot.core.plan.Kind;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.plan.Setting;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;
import java.util.ArrayList;
import java.util.List;
import net.sf.json.JSONArray;
import net.sf.json.JSONObject;

/**
 * List settings ({@code allowTools}, {@code denyTools}, ...: the catalog's {@link Kind.Control#LIST}) are lists in
 * Pipeline and one-entry-per-line text areas in the configuration form; yes/no settings are choices with an empty
 * "global setting" entry there.
 */
final class FormLists {
    private static final List<String> LIST_FIELDS = SessionSettings.all().stream()
            .filter(s -> s.kind().control() == Kind.Control.LIST).map(Setting::name).toList();
    private static final List<String> CHOICE_FIELDS = SessionSettings.all().stream()
            .filter(s -> s.kind().control() == Kind.Control.FLAG && !StepSettings.isCheckBox(s.name())).map(Setting::name).toList();

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

    /**
     * A submitted step form, ready to bind: text areas become lists, and the empty "global setting" entry of a yes/no
     * choice leaves the field unset (null), so that the global default applies; "true" and "false" are explicit. Empty
     * numbers and selections bind to null through their setters.
     */
    static JSONObject fromForm(JSONObject formData) {
        for (String choice : CHOICE_FIELDS) {
            Object value = formData.opt(choice);
            if (value == null || value instanceof String text && text.isBlank()) {
                formData.remove(choice);
            }
        }
        return textAreasToArrays(formData);
    }

    /** A form holding a task's settings under {@code field} (the Freestyle step's, the global defaults): as {@link #fromForm}. */
    static JSONObject nestedFromForm(JSONObject formData, String field) {
        JSONObject nested = formData.optJSONObject(field);
        if (nested != null) {
            formData.put(field, fromForm(nested));
        }
        return formData;
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

    /**
     * A copy without blank entries; null gives an empty list. A plain {@code ArrayList}: the Freestyle step and the
     * global configuration are saved with XStream, which should not meet the JDK's internal immutable lists.
     */
    static List<String> clean(List<String> entries) {
        return Texts.nonBlank(entries);
    }
}
