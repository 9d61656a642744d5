package io.jenkins.plugins.copilotautopilot.core.runner;

import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.mask.SecretMasker;
import io.jenkins.plugins.copilotautopilot.core.otel.SpanFile;
import io.jenkins.plugins.copilotautopilot.core.otel.TraceParent;
import io.jenkins.plugins.copilotautopilot.core.process.CliLauncher;
import io.jenkins.plugins.copilotautopilot.core.process.CliSession;
import io.jenkins.plugins.copilotautopilot.core.process.ControlFolderReader;
import io.jenkins.plugins.copilotautopilot.core.process.ForwardingCliLauncher;
import io.jenkins.plugins.copilotautopilot.core.process.ForwardingCliSession;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The runner's {@code --otel}: before the control folder goes, the CLI's spans are kept beside the journal (masked,
 * under {@code TRACEPARENT}'s trace when the environment has one).
 */
final class SpanKeeping extends ForwardingCliLauncher {
    private final Path destination;
    private final Map<String, String> env;
    private final PrintStream err;

    SpanKeeping(CliLauncher next, Path destination, Map<String, String> env, PrintStream err) {
        super(next);
        this.destination = destination;
        this.env = env;
        this.err = err;
    }

    /** Where the spans of a session with {@code journal} are kept. */
    static Path besideJournal(Path journal) {
        return journal.resolveSibling(journal.getFileName() + ".otel.jsonl");
    }

    @Override
    public CliSession launch(CliCommand command) throws IOException, InterruptedException {
        CliSession session = super.launch(command);
        Path folder = Path.of(command.launchFolder());
        SecretMasker masker = SecretMasker.of(command.secretValues(env));
        return ForwardingCliSession.beforeCleanup(session, () -> {
            try {
                byte[] lines = ControlFolderReader.spans(folder, SpanFile.MAX_BYTES);
                Files.write(destination, SpanFile.adopt(lines, TraceParent.parse(env.get("TRACEPARENT")), masker::mask));
            } catch (IOException e) {
                err.println(RunnerMain.NAME + ": " + RunnerChecks.cannotWrite("--otel", destination, e));
            }
        });
    }
}
