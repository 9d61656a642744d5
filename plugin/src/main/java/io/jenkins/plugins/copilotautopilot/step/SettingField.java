package io.jenkins.plugins.copilotautopilot.step;

import hudson.model.Item;
import hudson.util.FormValidation;
import hudson.util.ListBoxModel;
import io.jenkins.plugins.copilotautopilot.core.plan.Kind;
import io.jenkins.plugins.copilotautopilot.core.plan.Setting;
import org.kohsuke.stapler.AncestorInPath;
import org.kohsuke.stapler.QueryParameter;
import org.kohsuke.stapler.StaplerRequest2;
import org.kohsuke.stapler.verb.POST;

/**
 * One setting on a form, as the step's form draws it from the catalog ({@code config.jelly}): its control, title and
 * bounds, and, under the step descriptor's {@code setting/<name>/}, its check and the entries of its selection.
 */
public final class SettingField {
    /** The form's copilotScope among the global defaults. */
    static final String GLOBAL = "global";

    private final Setting<?> setting;

    SettingField(Setting<?> setting) {
        this.setting = setting;
    }

    public String getName() {
        return setting.name();
    }

    public String getTitle() {
        return setting.title();
    }

    /** {@code textbox}, {@code textarea}, {@code list}, {@code number}, {@code checkbox}, {@code select} or {@code credentials}. */
    public String getControl() {
        return switch (setting.kind().control()) {
            case TEXT -> "textbox";
            case TEXTAREA -> "textarea";
            case LIST -> "list";
            case NUMBER -> "number";
            case FLAG -> StepSettings.isCheckBox(setting.name()) ? "checkbox" : "select";
            case CHOICE, INSTALLATION -> "select";
            case CREDENTIALS -> "credentials";
        };
    }

    public Long getMin() {
        return setting.kind().min();
    }

    public Long getMax() {
        return setting.kind().max();
    }

    public boolean isAdvanced() {
        return setting.advanced();
    }

    /** The block the setting is shown in, together with the others of it ({@code provider}), or null. */
    public String getBlock() {
        return setting.block();
    }

    Setting<?> setting() {
        return setting;
    }

    /** Whether the form's field is checked as it is typed. */
    boolean isChecked() {
        Kind.Control control = setting.kind().control();
        return control != Kind.Control.FLAG && control != Kind.Control.CHOICE && control != Kind.Control.INSTALLATION;
    }

    @POST
    public FormValidation doCheck(@AncestorInPath Item item, @QueryParameter String value, StaplerRequest2 request) {
        String other = SettingForms.checkedWith(setting);
        return SettingForms.check(setting, item, value, other == null ? null : request.getParameter(other));
    }

    /** The entries of the selection; the current value of a credential comes as the field's own parameter. */
    @POST
    public ListBoxModel doFillItems(@AncestorInPath Item item, @QueryParameter String copilotScope, StaplerRequest2 request) {
        return items(item, GLOBAL.equals(copilotScope), request.getParameter(setting.name()));
    }

    /** The entries of the selection in {@code item}'s form (null: the global one), the global defaults' or a task's. */
    public ListBoxModel items(Item item, boolean global, String current) {
        return SettingForms.items(setting, global, item, current);
    }
}
