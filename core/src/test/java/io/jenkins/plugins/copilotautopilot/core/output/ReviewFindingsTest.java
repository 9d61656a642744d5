package io.jenkins.plugins.copilotautopilot.core.output;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import edu.hm.hafner.analysis.FileReaderFactory;
import edu.hm.hafner.analysis.Issue;
import edu.hm.hafner.analysis.Report;
import edu.hm.hafner.analysis.Severity;
import edu.hm.hafner.analysis.parser.JsonParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Findings held to the workspace, and the issues file as analysis-model's own parser (warnings-ng's) reads it. */
class ReviewFindingsTest {
    @TempDir
    Path tmp;

    private static Finding finding(String path) {
        return new Finding(path, 2, 4, Finding.Severity.HIGH, "m", null, null);
    }

    @Test
    void pathsAreMadeRelativeToTheWorkspaceAndWhatIsOutsideIsDroppedWithAWarning() {
        Path ws = Path.of("/agent/workspace/job");
        ReviewFindings.Held held = ReviewFindings.inWorkspace(List.of(finding("src/a.c"), finding("./b/../c.txt"),
                finding("/agent/workspace/job/abs.txt"), finding("../../etc/passwd"), finding("/etc/shadow"), finding(""),
                finding("../../job-other/x"), finding("sub\\win.c")), ws, Path.of("module"));

        assertThat(held.findings()).extracting(Finding::path)
                .containsExactly("module/src/a.c", "module/c.txt", "abs.txt", "module/sub/win.c");
        assertThat(held.warnings(true)).hasSize(4).allMatch(w -> w.endsWith("was dropped: the path is not a file in the workspace"))
                .anyMatch(w -> w.contains("'../../etc/passwd'")).anyMatch(w -> w.contains("'../../job-other/x'"));
        assertThat(held.warnings(false)).hasSize(4).allMatch(w -> w.equals("a finding was dropped: its path is not a file in the workspace"));
        // a path with terminal escapes is shown without them
        assertThat(ReviewFindings.inWorkspace(List.of(finding("../\u001b]8;;http://x\u0007evil")), ws, null).warnings(true))
                .singleElement().asString().doesNotContain("\u001b").doesNotContain("\u0007");
    }

    @Test
    void findingsAreReadFromAnAnswerAsTheAgentWroteThem() throws Exception {
        var answer = new ObjectMapper().readTree("{\"findings\": [{\"path\": \"a\", \"line\": 7, \"severity\": \"low\", \"message\": \"x\","
                + " \"category\": \"style\"}, {\"path\": \"b\", \"line\": 3, \"endLine\": 1, \"severity\": \"medium\", \"message\": \"y\"}]}");
        List<Finding> findings = ReviewFindings.of(answer);
        assertThat(findings).containsExactly(new Finding("a", 7, 7, Finding.Severity.LOW, "x", null, "style"),
                new Finding("b", 3, 3, Finding.Severity.MEDIUM, "y", null, null));
        assertThat(ReviewFindings.of(new ObjectMapper().readTree("{\"other\": 1}"))).isEmpty();
    }

    @Test
    void theIssuesFileIsWhatAnalysisModelsJsonParserReads() throws Exception {
        Path file = tmp.resolve("copilot-findings.json");
        Files.write(file, IssuesFile.of(List.of(
                new Finding("src/a.c", 3, 5, Finding.Severity.HIGH, "hard-coded password", "CWE-798", "security"),
                new Finding("README.md", 1, 1, Finding.Severity.MEDIUM, "<script>alert(1)</script>", null, null),
                new Finding("b.c", 9, 9, Finding.Severity.LOW, "style", null, "style"))));

        Report report = new JsonParser().parse(new FileReaderFactory(file));

        assertThat(report.getSize()).isEqualTo(3);
        Issue first = report.get(0);
        assertThat(first.getFileName()).isEqualTo("src/a.c");
        assertThat(first.getLineStart()).isEqualTo(3);
        assertThat(first.getLineEnd()).isEqualTo(5);
        assertThat(first.getSeverity()).isEqualTo(Severity.WARNING_HIGH);
        assertThat(first.getMessage()).isEqualTo("hard-coded password");
        assertThat(first.getType()).isEqualTo("CWE-798");
        assertThat(first.getCategory()).isEqualTo("security");
        assertThat(report.get(1).getSeverity()).isEqualTo(Severity.WARNING_NORMAL);
        // warnings-ng shows a message as sanitised HTML: the agent's text is written escaped, so it shows as written
        assertThat(report.get(1).getMessage()).isEqualTo("&lt;script&gt;alert(1)&lt;/script&gt;");
        assertThat(report.get(2).getSeverity()).isEqualTo(Severity.WARNING_LOW);
    }
}
