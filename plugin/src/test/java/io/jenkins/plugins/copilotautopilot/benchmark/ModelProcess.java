package io.jenkins.plugins.copilotautopilot.benchmark;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The scripted model of a {@link Workload} in a JVM of its own (127.0.0.1, a free port), so that its work is neither
 * the controller's CPU nor the agent's: the benchmark reads the controller's CPU from its own process. The child
 * prints its base URL on its first line and runs until its standard input closes (the parent closed it, or died).
 */
final class ModelProcess implements AutoCloseable {
    private final Process process;
    private final String baseUrl;

    private ModelProcess(Process process, String baseUrl) {
        this.process = process;
        this.baseUrl = baseUrl;
    }

    String baseUrl() {
        return baseUrl;
    }

    long pid() {
        return process.pid();
    }

    static ModelProcess start(Workload workload, Path errors) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = String.join(File.pathSeparator, location(ModelProcess.class), location(ScriptedModelServer.class),
                location(ObjectMapper.class), location(JsonParser.class), location(JsonAutoDetect.class));
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", classPath));
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith("bench.")) {
                command.add("-D" + name + "=" + System.getProperty(name));
            }
        }
        command.add(ModelProcess.class.getName());
        command.add(workload.name());
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(errors.toFile())).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String first = out.readLine();
        if (first == null || !first.startsWith("http://127.0.0.1:")) {
            process.destroyForcibly();
            throw new IOException("the scripted model did not start (" + first + "); see " + errors);
        }
        return new ModelProcess(process, first.strip());
    }

    private static String location(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws InterruptedException {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // gone already
        }
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor();
        }
    }

    public static void main(String[] args) throws IOException {
        Workload workload = Workload.valueOf(args[0]);
        try (ScriptedModelServer model = ScriptedModelServer.start(workload.script())) {
            System.out.println(model.baseUrl());
            System.out.flush();
            while (System.in.read() >= 0) {
                // runs until the benchmark closes our input
            }
            System.err.println("agent turns answered: " + model.agentTurns());
        }
    }
}
