package io.jenkins.plugins.copilotautopilot.core.build;

import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import io.jenkins.plugins.copilotautopilot.core.text.ConsoleText;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * The end of a build's console appended to a task ({@code includeBuildLog}), so that "why did this build fail, fix it"
 * can be asked with the failure in the prompt: escape sequences removed, this plugin's own lines left out, secrets
 * masked, and the whole task kept within {@link SessionSettings#MAX_PROMPT_BYTES}.
 *
 * @param task         the task with the excerpt appended
 * @param lines        how many console lines it holds
 * @param leftOutLines lines of the step's own ({@code [copilot] …}) left out
 */
public record BuildLogExcerpt(String task, int lines, int leftOutLines) {
    /** The most lines a step may ask for. */
    public static final int MAX_LINES = 10_000;
    /** Room left in the task for the excerpt's frame and the model's reading. */
    private static final int FRAME_BYTES = 512;
    private static final Pattern OWN_LINE = Pattern.compile("^(\\[[^\\]]*] )?\\[copilot] .*|^(\\[[^\\]]*] )?\\[copilot]$");

    /**
     * Appends the last {@code maxLines} of {@code consoleLines} (the console so far, notes already removed) to {@code task}.
     *
     * @param masker masks the secrets in a line (a {@code SecretMasker}'s {@code mask})
     * @param source what the lines are, for the agent ("Jenkins build folder/job #12")
     */
    public static BuildLogExcerpt append(String task, List<String> consoleLines, int maxLines, UnaryOperator<String> masker, String source) {
        List<String> kept = new ArrayList<>();
        int own = 0;
        for (String line : consoleLines) {
            String clean = ConsoleText.clean(line);
            if (OWN_LINE.matcher(clean).matches()) {
                own++;
                continue;
            }
            kept.add(masker.apply(clean));
        }
        if (kept.size() > maxLines) {
            kept = kept.subList(kept.size() - maxLines, kept.size());
        }
        long budget = SessionSettings.MAX_PROMPT_BYTES - (long) task.getBytes(StandardCharsets.UTF_8).length - FRAME_BYTES;
        int from = kept.size();
        long used = 0;
        while (from > 0) {
            long size = kept.get(from - 1).getBytes(StandardCharsets.UTF_8).length + 1L;
            if (used + size > budget) {
                break;
            }
            used += size;
            from--;
        }
        List<String> lines = kept.subList(from, kept.size());
        StringBuilder out = new StringBuilder(task.stripTrailing()).append("\n\n")
                .append("The last ").append(lines.size()).append(lines.size() == 1 ? " line" : " lines")
                .append(" of the console of ").append(source).append(", up to this step:\n")
                .append("<build_log>\n");
        for (String line : lines) {
            out.append(line).append('\n');
        }
        out.append("</build_log>\n");
        return new BuildLogExcerpt(out.toString(), lines.size(), own);
    }
}
