package io.jenkins.plugins.copilotautopilot.core.parts;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jenkins.plugins.copilotautopilot.core.events.EventParser;
import io.jenkins.plugins.copilotautopilot.core.journal.EventJournal;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.render.LogLines;
import io.jenkins.plugins.copilotautopilot.core.render.LogRenderer;
import io.jenkins.plugins.copilotautopilot.core.session.AiCredits;
import io.jenkins.plugins.copilotautopilot.core.session.Turn;
import io.jenkins.plugins.copilotautopilot.core.session.UsageRecord;
import io.jenkins.plugins.copilotautopilot.core.text.Texts;

/**
 * What each model call used, as the CLI recorded it: a line under its turn, a journal record, and, with {@code model:
 * 'auto'}, a warning when GitHub's routing chose no model (the CLI then used its default).
 */
public final class UsagePart implements SessionPart {
    private final PartContext context;
    private final boolean routed;
    private int currentTurn;
    private boolean routingFailureWarned;

    UsagePart(SessionPlan plan, PartContext context) {
        this.context = context;
        this.routed = LogRenderer.AUTO_MODEL.equals(plan.get(SessionSettings.MODEL));
    }

    @Override
    public void onTurnStarted(Turn turn) {
        currentTurn = turn.number();
    }

    @Override
    public void onUsage(UsageRecord usage) {
        String premium = usage.premiumRequests() > 0 ? " | premium requests: " + Texts.number(usage.premiumRequests()) : "";
        // the CLI writes its usage records in batches, so a record may come turns after its call
        String late = usage.turn() > 0 && usage.turn() != currentTurn ? " (turn " + usage.turn() + ")" : "";
        String credits = usage.aiCredits() == null ? "" : " | AI credits: " + AiCredits.format(usage.aiCredits());
        // with model auto, GitHub picks each call's model: the line names it
        String model = routed && usage.model() != null ? " | model: " + usage.model() : "";
        context.lines().line(LogLines.INDENT + "tokens" + late + ": " + LogLines.thousands(usage.inputTokens()) + " in, "
                + LogLines.thousands(usage.outputTokens()) + " out" + model + premium + credits);
        context.record(EventJournal.USAGE, record(usage));
        if (routed && !context.tracker().autoModeResolved() && !routingFailureWarned) {
            // the CLI 1.0.102 marks the calls as auto even then: only the missing routing event tells
            routingFailureWarned = true;
            context.warn("WARNING: model 'auto': GitHub's routing did not choose a model for turn " + usage.turn()
                    + ", so the Copilot CLI used " + (usage.model() == null ? "its default model" : "its default model, "
                    + usage.model()) + ", instead.");
        }
    }

    private static ObjectNode record(UsageRecord usage) {
        ObjectNode data = EventParser.mapper().createObjectNode();
        data.put("turn", usage.turn());
        data.put("model", usage.model());
        if (usage.auto()) {
            data.put("auto", true);
        }
        data.put("inputTokens", usage.inputTokens());
        data.put("outputTokens", usage.outputTokens());
        data.put("cacheReadTokens", usage.cacheReadTokens());
        data.put("cacheWriteTokens", usage.cacheWriteTokens());
        data.put("premiumRequests", usage.premiumRequests());
        if (usage.nanoAiu() != null) {
            data.put("aiCredits", usage.aiCredits());
        }
        data.put("durationMs", usage.durationMillis());
        return data;
    }
}
