package io.jenkins.plugins.copilotautopilot.pages;

import hudson.model.Item;
import hudson.model.Run;
import hudson.model.User;
import hudson.security.SecurityRealm;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import java.util.List;
import jenkins.model.Jenkins;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;

/**
 * Who may decide on a session's waiting calls, as {@code input}'s {@code submitter}: with no {@code approvers}, whoever
 * may build the job (Item/Build); with them, an administrator, or a user named there by id, or a member of a group
 * named there (ids and group names compared as the security realm compares them).
 */
final class Approvers {
    private Approvers() {
    }

    static boolean mayApprove(Run<?, ?> run, SessionPlan plan) {
        if (run == null || !run.getParent().hasPermission(Item.READ)) {
            return false;
        }
        List<String> named = plan.list(SessionSettings.APPROVERS);
        if (named.isEmpty()) {
            return run.getParent().hasPermission(Item.BUILD);
        }
        if (Jenkins.get().hasPermission(Jenkins.ADMINISTER)) {
            return true;
        }
        Authentication who = Jenkins.getAuthentication2();
        User user = User.current();
        if (user == null) {
            return false;
        }
        SecurityRealm realm = Jenkins.get().getSecurityRealm();
        for (String name : named) {
            String n = name.strip();
            if (realm.getUserIdStrategy().equals(n, user.getId())) {
                return true;
            }
            for (GrantedAuthority authority : who.getAuthorities()) {
                if (realm.getGroupIdStrategy().equals(n, authority.getAuthority())) {
                    return true;
                }
            }
        }
        return false;
    }
}
