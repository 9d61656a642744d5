package io.jenkins.plugins.copilotautopilot.step;

import io.jenkins.plugins.copilotautopilot.prepare.SessionRequest;

import io.jenkins.plugins.copilotautopilot.core.plan.SettingValues;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a step asked for, kept in the Pipeline's saved state while it waits for its token's slot, so that a restarted
 * controller can gather the session's inputs again when its turn comes: the prompt, the settings as given (text,
 * numbers, yes/no, lists: no secret, credentials are named by ID) and {@code propagate}. Dropped once the slot is its.
 */
final class WaitingRequest implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String prompt;
    private final LinkedHashMap<String, Serializable> settings = new LinkedHashMap<>();
    private final boolean propagate;

    private WaitingRequest(String prompt, boolean propagate) {
        this.prompt = prompt;
        this.propagate = propagate;
    }

    static WaitingRequest of(SessionRequest request) {
        WaitingRequest kept = new WaitingRequest(request.prompt(), request.propagate());
        for (Map.Entry<String, Object> e : request.settings().asMap().entrySet()) {
            Object value = e.getValue();
            if (value instanceof Collection<?> list) {
                ArrayList<String> items = new ArrayList<>();
                list.forEach(item -> items.add(String.valueOf(item)));
                kept.settings.put(e.getKey(), items);
            } else if (value instanceof Serializable serializable) {
                kept.settings.put(e.getKey(), serializable);
            } else {
                throw new IllegalArgumentException("setting " + e.getKey() + " cannot be kept across a restart: " + value.getClass());
            }
        }
        return kept;
    }

    SessionRequest request() {
        return new SessionRequest(prompt, SettingValues.of(settings), propagate);
    }
}
