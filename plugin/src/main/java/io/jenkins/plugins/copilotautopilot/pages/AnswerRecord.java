package io.jenkins.plugins.copilotautopilot.pages;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jenkins.plugins.copilotautopilot.core.result.Answer;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.kohsuke.stapler.export.Exported;
import org.kohsuke.stapler.export.ExportedBean;

/**
 * The agent's answer ({@code outputSchema}, {@code reviewFindings}), as a build keeps it in {@code build.xml}
 * ({@link Answer}): the answer as indented JSON (cut), how many answers were checked, and the first {@value #MAX_FINDINGS}
 * review findings (the journal has the answer whole). All of it is agent text.
 */
@ExportedBean(defaultVisibility = 4)
public final class AnswerRecord implements Serializable {
    private static final long serialVersionUID = 1L;
    static final int MAX_FINDINGS = 1_000;

    /** The answer that followed the schema, as indented JSON (cut), or null. */
    private final String output;
    private final int rounds;
    /** The review findings, held to the workspace; null when none were kept. */
    private final ArrayList<FindingRecord> findings;

    AnswerRecord(Answer a) {
        this(RecordTexts.cut(indented(a.output())), a.rounds(),
                new ArrayList<>(a.findings().stream().limit(MAX_FINDINGS).map(FindingRecord::new).toList()));
    }

    /** As a version before the parts saved it ({@link FlatSessionRecord}): what that form lacks is null or 0. */
    static AnswerRecord flat(String output, int rounds, ArrayList<FindingRecord> findings) {
        return new AnswerRecord(output, rounds, findings);
    }

    private AnswerRecord(String output, int rounds, ArrayList<FindingRecord> findings) {
        this.output = output;
        this.rounds = rounds;
        this.findings = findings;
    }

    private static String indented(String json) {
        if (json == null) {
            return null;
        }
        try {
            ObjectMapper mapper = new ObjectMapper();
            return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(mapper.readTree(json));
        } catch (IOException e) {
            return json;
        }
    }

    /** Without what the agent wrote: the answer and its findings. */
    AnswerRecord withoutAgentText() {
        return new AnswerRecord(null, rounds, null);
    }

    /** The answer that followed the schema, as indented JSON, or null (none, or not for this reader). */
    @Exported
    public String getOutput() {
        return output;
    }

    /** How many answers were checked against the schema. */
    @Exported
    public int getRounds() {
        return rounds;
    }

    /** The review findings, or empty (none, or not for this reader). */
    @Exported
    public List<FindingRecord> getFindings() {
        return findings == null ? List.of() : Collections.unmodifiableList(findings);
    }
}
