package io.jenkins.plugins.copilotautopilot.step;

import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.plan.Setting;
import io.jenkins.plugins.copilotautopilot.core.plan.SettingValues;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A step's settings as the plan reads them: for each setting of the catalog ({@link SessionSettings}), the value of the
 * step's property of the same name, as bound from Pipeline, a form or Configuration as Code. The step declares the
 * properties Jenkins binds; what they mean, how they merge and how they are checked is the catalog's alone.
 */
final class StepSettings {
    private static final Map<String, Method> GETTERS = getters();

    private StepSettings() {
    }

    /** The settings {@code step} gives; an empty list or an unchecked primitive yes/no ({@code offline}) gives none. */
    static SettingValues of(CopilotAutopilotStep step) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (Setting<?> setting : SessionSettings.all()) {
            Object value = value(step, setting.name());
            boolean unset = value == null || value instanceof Collection<?> c && c.isEmpty()
                    || GETTERS.get(setting.name()).getReturnType() == boolean.class && Boolean.FALSE.equals(value);
            if (!unset) {
                values.put(setting.name(), value);
            }
        }
        return SettingValues.of(values);
    }

    /** The step's property {@code name} (a setting's). */
    static Object value(CopilotAutopilotStep step, String name) {
        Method getter = GETTERS.get(name);
        if (getter == null) {
            throw new IllegalArgumentException("not a setting: " + name);
        }
        try {
            return getter.invoke(step);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot read " + name + " of a step", e);
        }
    }

    /** Whether the step's property is a primitive yes/no, shown as a check box rather than a choice with the global setting. */
    static boolean isCheckBox(String name) {
        Method getter = GETTERS.get(name);
        return getter != null && getter.getReturnType() == boolean.class;
    }

    /** The step's getter of every setting; a setting the step has no property for is a mistake found at once. */
    private static Map<String, Method> getters() {
        Map<String, Method> getters = new LinkedHashMap<>();
        for (Setting<?> setting : SessionSettings.all()) {
            String cap = Character.toUpperCase(setting.name().charAt(0)) + setting.name().substring(1);
            Method getter = find("get" + cap);
            if (getter == null) {
                getter = find("is" + cap);
            }
            if (getter == null) {
                throw new IllegalStateException("CopilotAutopilotStep has no property for the setting " + setting.name());
            }
            getters.put(setting.name(), getter);
        }
        return getters;
    }

    private static Method find(String name) {
        try {
            return CopilotAutopilotStep.class.getMethod(name);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /** A list property for a text area: one entry per line. */
    @SuppressWarnings("unchecked")
    static String listText(CopilotAutopilotStep step, String name) {
        return FormLists.text((List<String>) value(step, name));
    }
}
