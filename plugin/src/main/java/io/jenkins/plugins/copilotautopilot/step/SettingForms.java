package io.jenkins.plugins.copilotautopilot.step;

import io.jenkins.plugins.copilotautopilot.Messages;
import io.jenkins.plugins.copilotautopilot.tools.CopilotCliInstallation;

import com.cloudbees.plugins.credentials.CredentialsMatchers;
import com.cloudbees.plugins.credentials.CredentialsProvider;
import com.cloudbees.plugins.credentials.common.StandardListBoxModel;
import hudson.Util;
import hudson.model.Item;
import hudson.model.Queue;
import hudson.model.queue.Tasks;
import hudson.security.ACL;
import hudson.util.FormValidation;
import hudson.util.ListBoxModel;
import io.jenkins.plugins.copilotautopilot.core.command.SessionTask;
import io.jenkins.plugins.copilotautopilot.core.command.WorkspacePaths;
import io.jenkins.plugins.copilotautopilot.core.plan.Kind;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.plan.Setting;
import io.jenkins.plugins.copilotautopilot.core.plan.SettingValues;
import java.util.List;
import java.util.Map;
import java.util.MissingResourceException;
import jenkins.model.Jenkins;
import org.jenkinsci.plugins.plaincredentials.StringCredentials;
import org.jvnet.localizer.ResourceBundleHolder;
import org.springframework.security.core.Authentication;

/**
 * The form logic of every setting, drawn from the catalog ({@link SessionSettings}): the entries of its selection and
 * its check, which reads the value as a session would. Credential drop-downs and checks are shown only to users who
 * may see the credentials. A selection's labels are {@code SettingForms.<name>.<entry>} in {@code Messages.properties}
 * where a setting has words of its own, else the generic ones.
 */
final class SettingForms {
    private static final ResourceBundleHolder TEXT = ResourceBundleHolder.get(Messages.class);
    /** The settings a check reads together with another, by the other's name (the form sends it along). */
    private static final Map<String, String> CHECKED_WITH = Map.of(SessionSettings.PROVIDER_BASE_URL.name(), SessionSettings.MODEL.name());

    private SettingForms() {
    }

    /** The other field a setting's check needs ({@code model} for {@code providerBaseUrl}), or null. */
    static String checkedWith(Setting<?> setting) {
        return CHECKED_WITH.get(setting.name());
    }

    /** What is wrong with {@code value} for {@code setting}, read as a session reads it; {@code other}: the field {@link #checkedWith}. */
    static FormValidation check(Setting<?> setting, Item item, String value, String other) {
        if (setting.kind().control() == Kind.Control.CREDENTIALS) {
            return checkCredentials(item, value);
        }
        if (Util.fixEmptyAndTrim(value) == null) {
            return FormValidation.ok();
        }
        if (setting == SessionSettings.WORKING_DIRECTORY) {
            try {
                WorkspacePaths.relative(value);
            } catch (IllegalArgumentException e) {
                return FormValidation.error(e.getMessage());
            }
        }
        Object raw = setting.kind().control() == Kind.Control.LIST ? FormLists.lines(value) : value;
        String otherName = CHECKED_WITH.get(setting.name());
        if (otherName != null) {
            SettingValues together = SettingValues.none().with(setting, raw).with(SessionSettings.named(otherName), other);
            return problems(SessionPlan.resolve(together, SettingValues.none()).problems().messages());
        }
        return problems(setting.problems(raw));
    }

    /**
     * The task box beside {@code promptFile}: nothing to say while both are empty (a fresh form; the step says it when
     * it runs), one of them, not both.
     */
    static FormValidation checkPrompt(String value, String promptFile) {
        boolean file = promptFile != null && !promptFile.isBlank();
        if (value == null || value.isBlank()) {
            return FormValidation.ok();
        }
        if (file) {
            return FormValidation.error(Messages.SettingForms_PromptAndPromptFile());
        }
        return problems(SessionTask.of(value).problems());
    }

    /**
     * The entries of a setting's selection, after an empty one: on a step "the global setting" (so that an unchanged
     * form never pins a fallback over an administrator's choice), on the global page "not set".
     */
    static ListBoxModel items(Setting<?> setting, boolean global, Item item, String current) {
        ListBoxModel items = new ListBoxModel();
        switch (setting.kind().control()) {
            case CREDENTIALS -> {
                return credentials(item, current);
            }
            case FLAG -> {
                items.add(empty(setting, global), "");
                items.add(label(setting, "true", global, Messages.SettingForms_true()), "true");
                items.add(label(setting, "false", global, Messages.SettingForms_false()), "false");
            }
            case INSTALLATION -> {
                items.add(empty(setting, global), "");
                CopilotCliInstallation.DescriptorImpl tools = Jenkins.get().getDescriptorByType(CopilotCliInstallation.DescriptorImpl.class);
                for (CopilotCliInstallation installation : tools.getInstallations()) {
                    items.add(installation.getName());
                }
            }
            case CHOICE -> {
                items.add(setting.block() != null ? Messages.SettingForms_CliDefault() : empty(setting, global), "");
                setting.kind().choices().forEach(items::add);
            }
            default -> throw new IllegalArgumentException(setting.name() + " is not a selection");
        }
        return items;
    }

    private static String empty(Setting<?> setting, boolean global) {
        String fallback = setting.fallback() == null ? null : words(setting.fallback());
        if (global) {
            return label(setting, "notSet", false, Messages.SettingForms_notSet(fallback == null ? "none" : fallback));
        }
        return label(setting, "default", false, fallback == null ? Messages.SettingForms_defaultOfCli() : Messages.SettingForms_default(fallback));
    }

    private static String words(Object fallback) {
        if (fallback instanceof Boolean b) {
            return b ? "yes" : "no";
        }
        return String.valueOf(fallback);
    }

    /** The setting's own words for an entry ({@code SettingForms.sandbox.true}, on the global page {@code ...true.global}). */
    private static String label(Setting<?> setting, String entry, boolean global, String generic) {
        String key = "SettingForms." + setting.name() + "." + entry;
        if (global) {
            String own = text(key + ".global");
            if (own != null) {
                return own;
            }
        }
        String own = text(key);
        return own != null ? own : generic;
    }

    private static String text(String key) {
        try {
            return TEXT.format(key);
        } catch (MissingResourceException e) {
            return null;
        }
    }

    /** Secret text credentials the build could use; only for users allowed to see them. */
    private static ListBoxModel credentials(Item item, String current) {
        StandardListBoxModel result = new StandardListBoxModel();
        if (!mayListCredentials(item)) {
            return result.includeCurrentValue(current);
        }
        return result.includeEmptyValue()
                .includeMatchingAs(authenticationOf(item), item, StringCredentials.class, List.of(), CredentialsMatchers.always())
                .includeCurrentValue(current);
    }

    private static FormValidation checkCredentials(Item item, String value) {
        if (!mayListCredentials(item) || Util.fixEmptyAndTrim(value) == null) {
            return FormValidation.ok();
        }
        if (value.contains("${")) {
            return FormValidation.warning(Messages.SettingForms_CredentialsExpression());
        }
        if (CredentialsProvider.listCredentialsInItem(StringCredentials.class, item, authenticationOf(item), List.of(),
                CredentialsMatchers.withId(value)).isEmpty()) {
            return FormValidation.error(Messages.SettingForms_CredentialsNotFound(value));
        }
        return FormValidation.ok();
    }

    private static boolean mayListCredentials(Item item) {
        if (item == null) {
            return Jenkins.get().hasPermission(Jenkins.ADMINISTER);
        }
        return item.hasPermission(Item.EXTENDED_READ) || item.hasPermission(CredentialsProvider.USE_ITEM);
    }

    /** The identity the build will resolve credentials as. */
    private static Authentication authenticationOf(Item item) {
        return item instanceof Queue.Task task ? Tasks.getAuthenticationOf2(task) : ACL.SYSTEM2;
    }

    private static FormValidation problems(List<String> problems) {
        return problems.isEmpty() ? FormValidation.ok() : FormValidation.error(String.join(" ", problems));
    }

    /**
     * A token budget as a form or a script gives it: Stapler binds an empty {@code Long} field to 0 (it maps empty to
     * null only for {@code Integer}, {@code Float} and {@code Double}), so 0 means "not set", as a timeout of 0 does.
     */
    static Long tokenBudget(Long value) {
        return value == null || value == 0 ? null : value;
    }
}
