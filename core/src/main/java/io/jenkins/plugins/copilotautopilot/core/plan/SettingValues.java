package io.jenkins.plugins.copilotautopilot.core.plan;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Settings as somebody gave them, before they are read and merged: a step's fields, the administrator's defaults, the
 * runner's options. Values are as they come (text, numbers, yes/no, lists, a runner's durations); what they mean is
 * the {@link Kind}'s to say.
 */
public final class SettingValues {
    private static final SettingValues NONE = new SettingValues(Map.of());
    private final Map<String, Object> values;

    private SettingValues(Map<String, Object> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    public static SettingValues none() {
        return NONE;
    }

    /** The values of this map, by setting name; unknown names are an error of the caller's. */
    public static SettingValues of(Map<String, ?> byName) {
        Map<String, Object> values = new LinkedHashMap<>();
        byName.forEach((name, value) -> {
            if (SessionSettings.named(name) == null) {
                throw new IllegalArgumentException("no setting is named " + name);
            }
            if (value != null) {
                values.put(name, value);
            }
        });
        return new SettingValues(values);
    }

    /** These values and {@code setting}'s, replaced. */
    public SettingValues with(Setting<?> setting, Object value) {
        Map<String, Object> copy = new LinkedHashMap<>(values);
        if (value == null) {
            copy.remove(setting.name());
        } else {
            copy.put(setting.name(), value);
        }
        return new SettingValues(copy);
    }

    /** The value as given, or null. */
    public Object raw(Setting<?> setting) {
        return values.get(setting.name());
    }

    /** Whether the value sets the setting (not blank, not an empty list). */
    public boolean sets(Setting<?> setting) {
        return Kind.sets(values.get(setting.name()));
    }

    public Map<String, Object> asMap() {
        return values;
    }

    @Override
    public String toString() {
        return "SettingValues" + values.keySet();
    }
}
