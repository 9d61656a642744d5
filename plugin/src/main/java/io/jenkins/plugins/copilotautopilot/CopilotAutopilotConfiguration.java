package io.jenkins.plugins.copilotautopilot;

import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.Extension;
import hudson.ExtensionList;
import io.jenkins.plugins.copilotautopilot.core.settings.TaskSettings;
import jenkins.model.GlobalConfiguration;
import net.sf.json.JSONObject;
import org.jenkinsci.Symbol;
import org.kohsuke.stapler.DataBoundSetter;
import org.kohsuke.stapler.StaplerRequest2;

/**
 * Defaults for every {@code copilotAutopilot} step, set by an administrator under <em>Manage Jenkins » System</em> or
 * with Configuration as Code ({@code unclassified: copilotAutopilot: defaults:}). They are a task's settings
 * ({@link CopilotAutopilotStep}, with its form and help), of which the global form shows those that make sense for
 * every task. A step's own value wins; how the two merge (budgets are ceilings, denied tools add up, the model
 * provider is all-or-nothing) is decided by the engine's {@link TaskSettings#withDefaults}.
 */
@Extension
@Symbol("copilotAutopilot")
public final class CopilotAutopilotConfiguration extends GlobalConfiguration {
    private CopilotAutopilotStep defaults = new CopilotAutopilotStep(null);
    /** Set while a form is bound: the form is saved once, at the end, rather than once per setting. */
    private transient boolean binding;

    public CopilotAutopilotConfiguration() {
        load();
    }

    @NonNull
    public static CopilotAutopilotConfiguration get() {
        return ExtensionList.lookupSingleton(CopilotAutopilotConfiguration.class);
    }

    @NonNull
    @Override
    public String getDisplayName() {
        return Messages.CopilotAutopilotConfiguration_DisplayName();
    }

    public CopilotAutopilotStep getDefaults() {
        return defaults;
    }

    /** Saved at once when set by Configuration as Code or a script; once per submit from the form. */
    @DataBoundSetter
    public void setDefaults(CopilotAutopilotStep defaults) {
        this.defaults = defaults == null ? new CopilotAutopilotStep(null) : defaults;
        if (!binding) {
            save();
        }
    }

    /** The defaults as the engine's value. */
    TaskSettings toDefaults() {
        return defaults.toSettings();
    }

    @Override
    public boolean configure(StaplerRequest2 req, JSONObject json) throws FormException {
        binding = true;
        try {
            req.bindJSON(this, FormLists.nestedFromForm(json, "defaults"));
        } finally {
            binding = false;
        }
        save();
        return true;
    }
}
