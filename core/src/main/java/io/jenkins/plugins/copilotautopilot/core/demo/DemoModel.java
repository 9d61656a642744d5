package io.jenkins.plugins.copilotautopilot.core.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A model that needs no account, for trying the real Copilot CLI end to end: an OpenAI-compatible Chat Completions
 * endpoint on 127.0.0.1 that plays one short, scripted agent. Asked for a task, it lists the working folder
 * ({@code ls -A}), writes {@code NOTES.md} about what it found (the CLI's {@code create} tool) and calls
 * {@code task_complete}. The CLI, its tools, the log, the journal and the result are all real; only the model's
 * answers are fixed. It answers whatever task it is given the same way.
 */
public final class DemoModel implements AutoCloseable {
    /** The model name to give the CLI ({@code COPILOT_MODEL}). */
    public static final String MODEL = "demo-model";
    /** The task that fits the script. */
    public static final String PROMPT = "Write a NOTES.md that lists what is in this folder.";
    /** The tools the script uses: allow these and nothing else. */
    public static final List<String> TOOLS = List.of("shell(ls)", "write");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern WORKING_DIRECTORY = Pattern.compile("Current working directory: ([^\\n]+)");

    private final HttpServer server;
    private final ExecutorService threads;
    private final AtomicInteger ids = new AtomicInteger();

    private DemoModel(HttpServer server, ExecutorService threads) {
        this.server = server;
        this.threads = threads;
    }

    /** Starts the model on a free port of 127.0.0.1. */
    public static DemoModel start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        ExecutorService threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "copilot-autopilot-demo-model");
            t.setDaemon(true);
            return t;
        });
        DemoModel model = new DemoModel(server, threads);
        server.createContext("/", model::handle);
        server.setExecutor(threads);
        server.start();
        return model;
    }

    /** The provider base URL to give the CLI ({@code COPILOT_PROVIDER_BASE_URL}). */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!"POST".equals(exchange.getRequestMethod()) || !exchange.getRequestURI().getPath().endsWith("/chat/completions")) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            JsonNode request = JSON.readTree(exchange.getRequestBody());
            boolean agentTurn = request.path("tools").isArray() && !request.path("tools").isEmpty();
            Answer answer = agentTurn ? next(request) : new Answer("Demo session", null, null);
            stream(exchange, request.path("model").asText(MODEL), answer);
        }
    }

    /** The script: what to answer, from what the conversation has done so far. */
    private static Answer next(JsonNode request) {
        List<String> used = new ArrayList<>();
        String listing = null;
        String folder = null;
        for (JsonNode message : request.path("messages")) {
            for (JsonNode call : message.path("tool_calls")) {
                used.add(call.path("function").path("name").asText());
            }
            if ("tool".equals(message.path("role").asText()) && listing == null) {
                listing = message.path("content").asText();
            }
            Matcher m = WORKING_DIRECTORY.matcher(message.path("content").asText());
            if (folder == null && m.find()) {
                folder = m.group(1).strip();
            }
        }
        if (!used.contains("bash")) {
            return new Answer("I'll look at what is in this folder first.", "bash",
                    JSON.createObjectNode().put("command", "ls -A").put("description", "List the folder").put("mode", "sync")
                            .put("initial_wait", 10));
        }
        if (!used.contains("create")) {
            List<String> entries = new ArrayList<>();
            for (String line : (listing == null ? "" : listing).split("\n")) {
                if (!line.isBlank() && !line.startsWith("<") && !line.contains("exited with")) {
                    entries.add(line.strip());
                }
            }
            StringBuilder notes = new StringBuilder("# Notes\n\nWhat this folder held when the demo agent looked:\n\n");
            entries.forEach(e -> notes.append("- ").append(e).append('\n'));
            if (entries.isEmpty()) {
                notes.append("- nothing yet\n");
            }
            return new Answer("Now I'll write NOTES.md with what I found.", "create",
                    JSON.createObjectNode().put("path", (folder == null ? "." : folder) + "/NOTES.md").put("file_text", notes.toString()));
        }
        return new Answer(null, "task_complete",
                JSON.createObjectNode().put("summary", "Wrote NOTES.md, which lists what this folder holds."));
    }

    private record Answer(String text, String tool, ObjectNode arguments) {
    }

    /** The answer as server-sent chunks, as a streaming model sends it. */
    private void stream(HttpExchange exchange, String model, Answer answer) throws IOException {
        String id = "chatcmpl-demo-" + ids.incrementAndGet();
        exchange.getResponseHeaders().add("content-type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        send(out, chunk(id, model, JSON.createObjectNode().put("role", "assistant").put("content", ""), null));
        if (answer.text() != null) {
            for (String word : answer.text().split("(?<= )")) {
                send(out, chunk(id, model, JSON.createObjectNode().put("content", word), null));
            }
        }
        if (answer.tool() != null) {
            ObjectNode delta = JSON.createObjectNode();
            ObjectNode call = delta.putArray("tool_calls").addObject().put("index", 0).put("id", "call_demo_" + ids.get())
                    .put("type", "function");
            call.putObject("function").put("name", answer.tool()).put("arguments", JSON.writeValueAsString(answer.arguments()));
            send(out, chunk(id, model, delta, null));
        }
        send(out, chunk(id, model, JSON.createObjectNode(), answer.tool() != null ? "tool_calls" : "stop"));
        ObjectNode usage = JSON.createObjectNode().put("id", id).put("object", "chat.completion.chunk").put("model", model);
        usage.putArray("choices");
        usage.putObject("usage").put("prompt_tokens", 1200).put("completion_tokens", 40).put("total_tokens", 1240);
        send(out, usage);
        out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static ObjectNode chunk(String id, String model, ObjectNode delta, String finishReason) {
        ObjectNode chunk = JSON.createObjectNode().put("id", id).put("object", "chat.completion.chunk")
                .put("created", System.currentTimeMillis() / 1000).put("model", model);
        ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
        choice.set("delta", delta);
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        return chunk;
    }

    private static void send(OutputStream out, JsonNode chunk) throws IOException {
        out.write(("data: " + JSON.writeValueAsString(chunk) + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
