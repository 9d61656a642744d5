package io.jenkins.plugins.copilotautopilot;

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
import io.jenkins.plugins.copilotautopilot.core.command.AutopilotOptions;
import io.jenkins.plugins.copilotautopilot.core.command.ProviderOptions;
import io.jenkins.plugins.copilotautopilot.core.command.WorkspacePaths;
import io.jenkins.plugins.copilotautopilot.core.outcome.ResultWhenIncomplete;
import java.util.List;
import jenkins.model.Jenkins;
import org.jenkinsci.plugins.plaincredentials.StringCredentials;
import org.springframework.security.core.Authentication;

/**
 * The form logic behind both descriptors (Pipeline step and Freestyle builder): credential drop-downs with
 * permission checks, and field checks that reuse the engine's own validation.
 */
final class AutopilotForms {
    private AutopilotForms() {
    }

    /**
     * A token budget as a form or a script gives it: Stapler binds an empty {@code Long} field to 0 (it maps empty to
     * null only for {@code Integer}, {@code Float} and {@code Double}), so 0 means "not set", as a timeout of 0 does.
     */
    static Long tokenBudget(Long value) {
        return value == null || value == 0 ? null : value;
    }

    /** Secret text credentials the build could use; only for users allowed to see them. */
    static ListBoxModel fillCredentials(Item item, String current) {
        StandardListBoxModel result = new StandardListBoxModel();
        if (!mayListCredentials(item)) {
            return result.includeCurrentValue(current);
        }
        return result.includeEmptyValue()
                .includeMatchingAs(authenticationOf(item), item, StringCredentials.class, List.of(), CredentialsMatchers.always())
                .includeCurrentValue(current);
    }

    static FormValidation checkCredentials(Item item, String value) {
        if (!mayListCredentials(item) || Util.fixEmptyAndTrim(value) == null) {
            return FormValidation.ok();
        }
        if (value.contains("${")) {
            return FormValidation.warning(Messages.AutopilotForms_CredentialsExpression());
        }
        if (CredentialsProvider.listCredentialsInItem(StringCredentials.class, item, authenticationOf(item), List.of(),
                CredentialsMatchers.withId(value)).isEmpty()) {
            return FormValidation.error(Messages.AutopilotForms_CredentialsNotFound(value));
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

    static FormValidation checkPrompt(String value) {
        return problems(AutopilotOptions.builder(value).build().validate());
    }

    static FormValidation checkNonNegative(String value) {
        String v = Util.fixEmptyAndTrim(value);
        if (v == null) {
            return FormValidation.ok();
        }
        try {
            return Integer.parseInt(v) >= 0 ? FormValidation.ok() : FormValidation.error(Messages.AutopilotForms_NotNegative());
        } catch (NumberFormatException e) {
            return FormValidation.error(Messages.AutopilotForms_NotANumber(v));
        }
    }

    /** Empty (no limit) or a number above 0. */
    static FormValidation checkPositiveNumber(String value) {
        String v = Util.fixEmptyAndTrim(value);
        if (v == null) {
            return FormValidation.ok();
        }
        try {
            return Double.parseDouble(v) > 0 ? FormValidation.ok() : FormValidation.error(Messages.AutopilotForms_NotPositive());
        } catch (NumberFormatException e) {
            return FormValidation.error(Messages.AutopilotForms_NotANumber(v));
        }
    }

    static FormValidation checkWorkingDirectory(String value) {
        try {
            WorkspacePaths.relative(value);
            return FormValidation.ok();
        } catch (IllegalArgumentException e) {
            return FormValidation.error(e.getMessage());
        }
    }

    static FormValidation checkProviderBaseUrl(String value, String model) {
        if (Util.fixEmptyAndTrim(value) == null) {
            return FormValidation.ok();
        }
        return problems(AutopilotOptions.builder("check").model(model)
                .provider(new ProviderOptions(value, null, null, null, false)).build().validate());
    }

    private static FormValidation problems(List<String> problems) {
        return problems.isEmpty() ? FormValidation.ok() : FormValidation.error(String.join(" ", problems));
    }

    /**
     * The results for an incomplete task, after an empty entry: on a step "the global setting" (so that an unchanged
     * form never pins the built-in FAILURE over an administrator's choice), on the global page "not set".
     */
    static ListBoxModel resultWhenIncompleteItems(boolean global) {
        ListBoxModel items = new ListBoxModel();
        items.add(global ? Messages.AutopilotForms_ResultNotSet() : Messages.AutopilotForms_ResultDefault(), "");
        for (ResultWhenIncomplete value : ResultWhenIncomplete.values()) {
            items.add(value.name());
        }
        return items;
    }

    /**
     * {@code allowAllTools}: in a task the global setting (empty, so null), or an explicit yes or no; among the
     * defaults, not set (no), yes or no.
     */
    static ListBoxModel allowAllToolsItems(boolean global) {
        ListBoxModel items = new ListBoxModel();
        items.add(global ? Messages.AutopilotForms_AllowAllToolsNotSet() : Messages.AutopilotForms_AllowAllToolsDefault(), "");
        items.add(Messages.AutopilotForms_AllowAllToolsYes(), "true");
        items.add(Messages.AutopilotForms_AllowAllToolsNo(), "false");
        return items;
    }

    /** {@code skipPublishingChecks}: the global setting (empty, so null) or not set (publish), publish, or skip. */
    static ListBoxModel skipPublishingChecksItems(boolean global) {
        ListBoxModel items = new ListBoxModel();
        items.add(global ? Messages.AutopilotForms_ChecksNotSet() : Messages.AutopilotForms_ChecksDefault(), "");
        items.add(Messages.AutopilotForms_ChecksPublish(), "false");
        items.add(Messages.AutopilotForms_ChecksSkip(), "true");
        return items;
    }

    /** {@code recordChanges}: the global setting (empty, so null) or not set (yes), yes, or no. */
    static ListBoxModel recordChangesItems(boolean global) {
        ListBoxModel items = new ListBoxModel();
        items.add(global ? Messages.AutopilotForms_RecordChangesNotSet() : Messages.AutopilotForms_RecordChangesDefault(), "");
        items.add(Messages.AutopilotForms_RecordChangesYes(), "true");
        items.add(Messages.AutopilotForms_RecordChangesNo(), "false");
        return items;
    }

    /** {@code allowAllPaths}: the global setting (empty, so null) or not set (no, steps may say yes), yes, or no (for every step). */
    static ListBoxModel allowAllPathsItems(boolean global) {
        ListBoxModel items = new ListBoxModel();
        items.add(global ? Messages.AutopilotForms_AllowAllPathsNotSet() : Messages.AutopilotForms_AllowAllPathsDefault(), "");
        items.add(Messages.AutopilotForms_AllowAllPathsYes(), "true");
        items.add(global ? Messages.AutopilotForms_AllowAllPathsNever() : Messages.AutopilotForms_AllowAllPathsNo(), "false");
        return items;
    }

    /** {@code sandbox}: the global setting (empty, so null) or not set (no, steps may say yes), yes (for every step), or no. */
    static ListBoxModel sandboxItems(boolean global) {
        ListBoxModel items = new ListBoxModel();
        items.add(global ? Messages.AutopilotForms_SandboxNotSet() : Messages.AutopilotForms_SandboxDefault(), "");
        items.add(global ? Messages.AutopilotForms_SandboxAlways() : Messages.AutopilotForms_SandboxYes(), "true");
        items.add(Messages.AutopilotForms_SandboxNo(), "false");
        return items;
    }

    /** {@code agentTextInConsole}: the global setting (empty, so null) or not set (yes), yes, or no. */
    static ListBoxModel agentTextInConsoleItems(boolean global) {
        ListBoxModel items = new ListBoxModel();
        items.add(global ? Messages.AutopilotForms_AgentTextNotSet() : Messages.AutopilotForms_AgentTextDefault(), "");
        items.add(Messages.AutopilotForms_AgentTextYes(), "true");
        items.add(Messages.AutopilotForms_AgentTextNo(), "false");
        return items;
    }

    /**
     * The configured Copilot CLI installations, after an empty entry: on a step "the global default", on the global
     * page (where there is no default above it) what an empty default really means.
     */
    static ListBoxModel installationItems(boolean global) {
        ListBoxModel items = new ListBoxModel();
        items.add(global ? Messages.AutopilotForms_NoDefaultInstallation() : Messages.AutopilotForms_DefaultInstallation(), "");
        CopilotCliInstallation.DescriptorImpl tools = Jenkins.get().getDescriptorByType(CopilotCliInstallation.DescriptorImpl.class);
        for (CopilotCliInstallation installation : tools.getInstallations()) {
            items.add(installation.getName());
        }
        return items;
    }


    static ListBoxModel providerTypeItems() {
        return choices("openai", "azure", "anthropic");
    }

    static ListBoxModel providerWireApiItems() {
        return choices("completions", "responses");
    }

    private static ListBoxModel choices(String... values) {
        ListBoxModel items = new ListBoxModel();
        items.add(Messages.AutopilotForms_CliDefault(), "");
        for (String value : values) {
            items.add(value);
        }
        return items;
    }
}
