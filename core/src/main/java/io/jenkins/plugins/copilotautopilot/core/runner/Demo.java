package io.jenkins.plugins.copilotautopilot.core.runner;

import io.jenkins.plugins.copilotautopilot.core.demo.DemoModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --demo}: a real Copilot CLI session with no account, the runner's first command in the README. The model is
 * {@link DemoModel} on 127.0.0.1; the task, the folder (a new one with a few files) and the allowed tools fit its
 * script unless given.
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

    /** The arguments of a demo run: the user's, with the demo model, and the demo's task, folder and tools unless given. */
    static String[] arguments(String[] args, DemoModel model, Path folder) {
        List<String> out = new ArrayList<>();
        boolean prompt = false;
        boolean dir = false;
        for (String arg : args) {
            if (arg.equals(OPTION) || arg.startsWith(OPTION + "=")) {
                continue;
            }
            prompt |= arg.equals("-p") || arg.startsWith("--prompt");
            dir |= arg.equals("-C") || arg.startsWith("--dir");
            out.add(arg);
        }
        out.addAll(List.of("--provider-base-url", model.baseUrl(), "--model", DemoModel.MODEL, "--offline"));
        DemoModel.TOOLS.forEach(t -> out.addAll(List.of("--allow-tool", t)));
        if (!prompt) {
            out.addAll(List.of("--prompt", DemoModel.PROMPT));
        }
        if (!dir) {
            out.addAll(List.of("--dir", folder.toString()));
        }
        return out.toArray(new String[0]);
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
