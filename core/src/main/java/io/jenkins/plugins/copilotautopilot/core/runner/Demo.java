package io.jenkins.plugins.copilotautopilot.core.runner;

import io.jenkins.plugins.copilotautopilot.core.demo.DemoModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --demo}: a real Copilot CLI session with no account, the runner's first command in the README. The model is
 * {@link DemoModel} on 127.0.0.1; the task and the allowed tools fit its script, and so does the folder (a new one with
 * a few files) unless one is given.
 */
final class Demo {
    static final String OPTION = "--demo";

    private Demo() {
    }

    static boolean asked(String[] args) {
        for (String arg : args) {
            if (arg.equals(OPTION) || arg.equals(OPTION + "=true")) {
                return true;
            }
        }
        return false;
    }

    /**
     * A demo runs its own task: its model answers every task the same way, so a task given with {@code --demo} would
     * be ignored; it is refused instead.
     */
    static void refuseATask(String[] args) throws RunnerArguments.UsageException {
        OptionValues given = OptionValues.read(withoutDemo(args).toArray(new String[0]));
        if (given.last("--prompt", null) != null || given.last("--prompt-file", null) != null) {
            throw new RunnerArguments.UsageException("--demo runs its own task (its scripted model answers every task the same"
                    + " way): leave out --prompt and --prompt-file, or leave out --demo");
        }
    }

    /** The arguments of a demo run: the user's, with the demo model and task, and the demo's folder unless given. */
    static String[] arguments(String[] args, DemoModel model, Path folder) {
        List<String> out = withoutDemo(args);
        boolean dir = out.stream().anyMatch(arg -> arg.equals("-C") || arg.startsWith("--dir"));
        out.addAll(List.of("--provider-base-url", model.baseUrl(), "--model", DemoModel.MODEL, "--offline"));
        DemoModel.TOOLS.forEach(t -> out.addAll(List.of("--allow-tool", t)));
        out.addAll(List.of("--prompt", DemoModel.PROMPT));
        if (!dir) {
            out.addAll(List.of("--dir", folder.toString()));
        }
        return out.toArray(new String[0]);
    }

    private static List<String> withoutDemo(String[] args) {
        List<String> out = new ArrayList<>();
        for (String arg : args) {
            if (!arg.equals(OPTION) && !arg.startsWith(OPTION + "=")) {
                out.add(arg);
            }
        }
        return out;
    }

    /** A new folder with a few files for the demo agent to look at. */
    static Path folder() throws IOException {
        Path folder = Files.createTempDirectory("copilot-autopilot-demo-");
        Files.writeString(folder.resolve("README.md"), "# A demo project\n\nA folder for the Copilot autopilot demo.\n");
        Files.createDirectories(folder.resolve("src"));
        Files.writeString(folder.resolve("src/hello.sh"), "#!/bin/sh\necho hello\n");
        return folder;
    }
}
