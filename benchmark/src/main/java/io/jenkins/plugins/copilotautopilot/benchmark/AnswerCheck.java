package io.jenkins.plugins.copilotautopilot.benchmark;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import io.jenkins.plugins.copilotautopilot.core.output.IssuesFile;
import io.jenkins.plugins.copilotautopilot.core.output.OutputSchema;
import io.jenkins.plugins.copilotautopilot.core.output.OutputVerdict;
import io.jenkins.plugins.copilotautopilot.core.output.ReviewFindings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What an answer of {@value #FINDINGS} review findings costs once the session has ended: masked and checked against the
 * built-in findings schema (the engine's verdict), read into findings, held to the workspace and written as analysis-model's
 * issues file; beside Python's {@code jsonschema} validating the same answer against the same schema, as a Pipeline
 * author might with a {@code sh} step.
 */
final class AnswerCheck {
    static final int FINDINGS = 1_000;
    static final int ROUNDS = 30;

    record Result(double checkMillis, double publishMillis, int findings, int errors, double pythonMillis) {
    }

    private AnswerCheck() {
    }

    static String answer() {
        StringBuilder json = new StringBuilder("{\"findings\": [");
        for (int i = 0; i < FINDINGS; i++) {
            json.append(i == 0 ? "" : ", ").append("{\"path\": \"src/module").append(i % 40).append("/File").append(i).append(".java\", \"line\": ")
                    .append(1 + i).append(", \"endLine\": ").append(3 + i).append(", \"severity\": \"").append(new String[] {"high", "medium", "low"}[i % 3])
                    .append("\", \"message\": \"Possible null dereference of the value returned by lookup(), finding number ").append(i)
                    .append(".\", \"rule\": \"NP_NULL_ON_SOME_PATH\", \"category\": \"correctness\"}");
        }
        return json.append("]}").toString();
    }

    static Result run(Path work) throws Exception {
        OutputSchema schema = OutputSchema.parse(ReviewFindings.SCHEMA);
        // as a session masks its answer: a secret to look for in every string
        SecretMasker masker = SecretMasker.of(List.of("github_pat_11ABCDEFG0123456789_benchmarksecret"));
        String answer = answer();
        ObjectMapper json = new ObjectMapper();
        Path workspace = work.resolve("workspace");
        List<Long> check = new ArrayList<>();
        List<Long> publish = new ArrayList<>();
        int findings = 0;
        int errors = 0;
        for (int i = 0; i < BenchmarkMain.WARMUP_ROUNDS * 10 + ROUNDS; i++) {
            long t0 = System.nanoTime();
            OutputVerdict verdict = OutputVerdict.check(1, answer, schema, masker::mask);
            long t1 = System.nanoTime();
            ReviewFindings.Held held = ReviewFindings.inWorkspace(ReviewFindings.of(json.readTree(verdict.answer())), workspace, null);
            byte[] file = IssuesFile.of(held.findings());
            long t2 = System.nanoTime();
            if (i >= BenchmarkMain.WARMUP_ROUNDS * 10) {
                check.add(t1 - t0);
                publish.add(t2 - t1);
            }
            findings = held.findings().size();
            errors = verdict.errors().size() + (file.length == 0 ? 1 : 0);
        }
        return new Result(Stats.median(check) / 1e6, Stats.median(publish) / 1e6, findings, errors, python(work, answer));
    }

    /** The median of Python jsonschema's validation of the answer, in ms (its start not counted), or -1 without it. */
    private static double python(Path work, String answer) throws IOException, InterruptedException {
        Path schema = work.resolve("findings-schema.json");
        Path doc = work.resolve("findings-answer.json");
        Path script = work.resolve("validate.py");
        Files.writeString(schema, ReviewFindings.SCHEMA, StandardCharsets.UTF_8);
        Files.writeString(doc, answer, StandardCharsets.UTF_8);
        try (InputStream in = AnswerCheck.class.getResourceAsStream("validate.py")) {
            Files.write(script, in.readAllBytes());
        }
        Process p;
        try {
            p = new ProcessBuilder("python3", script.toString(), schema.toString(), doc.toString(), String.valueOf(ROUNDS))
                    .redirectErrorStream(true).start();
        } catch (IOException e) {
            return -1;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
            p.destroyForcibly();
            return -1; // no python3, or no jsonschema module
        }
        return Double.parseDouble(out);
    }
}
