package io.jenkins.plugins.copilotautopilot.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A scripted OpenAI-compatible model (Chat Completions, SSE streaming) on 127.0.0.1, so that the real
 * Copilot CLI can run whole autopilot sessions offline. Requests that offer tools are agent turns and are
 * answered by the {@link Script}; other requests (session titles and the like) get a short text.
 */
public final class ScriptedModelServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Decides the answer to each agent request. */
    @FunctionalInterface
    public interface Script {
        Reply reply(AgentRequest request);
    }

    /**
     * One agent request as the script sees it.
     *
     * @param turn      1-based number of this agent request
     * @param body      the request body
     * @param usedTools names of the tools the conversation has already called
     */
    public record AgentRequest(int turn, JsonNode body, List<String> usedTools) {
        public boolean offers(String tool) {
            for (JsonNode t : body.path("tools")) {
                if (tool.equals(t.path("function").path("name").asText())) {
                    return true;
                }
            }
            return false;
        }

        public boolean used(String tool) {
            return usedTools.contains(tool);
        }
    }

    /** What the model answers. Build with the static factories and the {@code with...} methods. */
    public static final class Reply {
        String text;
        int chunk = 40;
        long delayMs;
        String toolName;
        String toolArguments;
        int status;
        String errorMessage;
        boolean stall;
        boolean malformed;
        int promptTokens = 1000;
        int completionTokens = 20;

        public static Reply text(String text) {
            Reply r = new Reply();
            r.text = text;
            return r;
        }

        public static Reply tool(String name, Map<String, ?> arguments) {
            Reply r = new Reply();
            r.toolName = name;
            r.toolArguments = json(arguments);
            return r;
        }

        /** A {@code bash} call that runs {@code command} and waits up to {@code waitSeconds} for it. */
        public static Reply bash(String command, int waitSeconds) {
            return tool("bash", Map.of("command", command, "description", "Run a command", "mode", "sync",
                    "initial_wait", waitSeconds));
        }

        public static Reply taskComplete(String summary) {
            return tool("task_complete", Map.of("summary", summary));
        }

        /** An HTTP error instead of an answer. */
        public static Reply status(int status, String message) {
            Reply r = new Reply();
            r.status = status;
            r.errorMessage = message;
            return r;
        }

        /** Starts streaming, then never sends another byte. */
        public static Reply stall() {
            Reply r = new Reply();
            r.stall = true;
            return r;
        }

        /** A 200 response whose SSE body is not valid. */
        public static Reply malformed() {
            Reply r = new Reply();
            r.malformed = true;
            return r;
        }

        /** The usage the answer reports (default: 1,000 prompt and 20 completion tokens). */
        public Reply withUsage(int prompt, int completion) {
            this.promptTokens = prompt;
            this.completionTokens = completion;
            return this;
        }

        public Reply withText(String value) {
            this.text = value;
            return this;
        }

        /** Streams the text in pieces of {@code size} characters, {@code delayMs} apart. */
        public Reply chunked(int size, long delay) {
            this.chunk = size;
            this.delayMs = delay;
            return this;
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "scripted-model");
        t.setDaemon(true);
        return t;
    });
    private final Script script;
    private final AtomicInteger agentTurns = new AtomicInteger();
    private final AtomicInteger ids = new AtomicInteger();
    private final List<JsonNode> requests = Collections.synchronizedList(new ArrayList<>());
    private final CountDownLatch closed = new CountDownLatch(1);

    private ScriptedModelServer(Script script) throws IOException {
        this.script = script;
        this.server = LoopbackHttp.start(executor, this::handle);
    }

    public static ScriptedModelServer start(Script script) throws IOException {
        return new ScriptedModelServer(script);
    }

    /** The provider base URL to give the CLI. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    public int agentTurns() {
        return agentTurns.get();
    }

    /** Every request body received, in order. */
    public List<JsonNode> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    @Override
    public void close() {
        closed.countDown();
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            byte[] raw = exchange.getRequestBody().readAllBytes();
            if ("GET".equals(exchange.getRequestMethod()) && path.endsWith("/models")) {
                sendJson(exchange, 200, JSON.readTree("{\"object\":\"list\",\"data\":[{\"id\":\"fake-model\",\"object\":\"model\",\"created\":0,\"owned_by\":\"test\"}]}"));
                return;
            }
            if (!"POST".equals(exchange.getRequestMethod()) || !path.endsWith("/chat/completions")) {
                sendJson(exchange, 404, error("no route " + path));
                return;
            }
            JsonNode body = JSON.readTree(new String(raw, StandardCharsets.UTF_8));
            requests.add(body);
            boolean agent = body.path("tools").isArray() && body.path("tools").size() > 0;
            Reply reply = agent
                    ? script.reply(new AgentRequest(agentTurns.incrementAndGet(), body, usedTools(body)))
                    : Reply.text("Scripted session title");
            respond(exchange, body, reply);
        } catch (IOException e) {
            // the CLI went away mid-answer (killed by a test): nothing to do
        }
    }

    private static List<String> usedTools(JsonNode body) {
        List<String> used = new ArrayList<>();
        for (JsonNode message : body.path("messages")) {
            for (JsonNode call : message.path("tool_calls")) {
                used.add(call.path("function").path("name").asText());
            }
        }
        return used;
    }

    private void respond(HttpExchange exchange, JsonNode body, Reply reply) throws IOException {
        if (reply.status != 0) {
            sendJson(exchange, reply.status, error(reply.errorMessage));
            return;
        }
        String id = "chatcmpl-scripted-" + ids.incrementAndGet();
        String model = body.path("model").asText("fake-model");
        if (!body.path("stream").asBoolean(false)) {
            sendJson(exchange, 200, completion(id, model, reply));
            return;
        }
        exchange.getResponseHeaders().add("content-type", "text/event-stream");
        exchange.getResponseHeaders().add("cache-control", "no-cache");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        if (reply.malformed) {
            write(out, "data: {\"id\": \"broken\", \"choices\": [ {\"delta\": \n\ndata: not json at all\n\n");
            write(out, "data: [DONE]\n\n");
            return;
        }
        send(out, chunk(id, model, JSON.createObjectNode().put("role", "assistant").put("content", ""), null));
        if (reply.stall) {
            try {
                closed.await(10, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return;
        }
        if (reply.text != null) {
            for (int i = 0; i < reply.text.length(); i += reply.chunk) {
                String piece = reply.text.substring(i, Math.min(reply.text.length(), i + reply.chunk));
                send(out, chunk(id, model, JSON.createObjectNode().put("content", piece), null));
                pause(reply.delayMs);
            }
        }
        if (reply.toolName != null) {
            String callId = "call_scripted_" + ids.get();
            ObjectNode first = JSON.createObjectNode();
            ArrayNode calls = first.putArray("tool_calls");
            ObjectNode call = calls.addObject().put("index", 0).put("id", callId).put("type", "function");
            call.putObject("function").put("name", reply.toolName).put("arguments", "");
            send(out, chunk(id, model, first, null));
            String args = reply.toolArguments;
            for (int i = 0; i < args.length(); i += 30) {
                ObjectNode delta = JSON.createObjectNode();
                delta.putArray("tool_calls").addObject().put("index", 0).putObject("function")
                        .put("arguments", args.substring(i, Math.min(args.length(), i + 30)));
                send(out, chunk(id, model, delta, null));
            }
        }
        send(out, chunk(id, model, JSON.createObjectNode(), reply.toolName != null ? "tool_calls" : "stop"));
        ObjectNode usage = JSON.createObjectNode().put("id", id).put("object", "chat.completion.chunk").put("model", model);
        usage.putArray("choices");
        usage.putObject("usage").put("prompt_tokens", reply.promptTokens).put("completion_tokens", reply.completionTokens)
                .put("total_tokens", reply.promptTokens + reply.completionTokens);
        send(out, usage);
        write(out, "data: [DONE]\n\n");
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

    private static ObjectNode completion(String id, String model, Reply reply) {
        ObjectNode root = JSON.createObjectNode().put("id", id).put("object", "chat.completion")
                .put("created", System.currentTimeMillis() / 1000).put("model", model);
        ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
        ObjectNode message = choice.putObject("message").put("role", "assistant");
        if (reply.text != null) {
            message.put("content", reply.text);
        } else {
            message.putNull("content");
        }
        if (reply.toolName != null) {
            ObjectNode call = message.putArray("tool_calls").addObject().put("id", "call_scripted_" + ids(id)).put("type", "function");
            call.putObject("function").put("name", reply.toolName).put("arguments", reply.toolArguments);
        }
        choice.put("finish_reason", reply.toolName != null ? "tool_calls" : "stop");
        root.putObject("usage").put("prompt_tokens", reply.promptTokens).put("completion_tokens", reply.completionTokens)
                .put("total_tokens", reply.promptTokens + reply.completionTokens);
        return root;
    }

    private static String ids(String id) {
        return id.substring(id.lastIndexOf('-') + 1);
    }

    private static ObjectNode error(String message) {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("error").put("message", message).put("type", "server_error");
        return root;
    }

    private static void sendJson(HttpExchange exchange, int status, JsonNode body) throws IOException {
        LoopbackHttp.sendJson(exchange, status, JSON.writeValueAsBytes(body));
    }

    private static void send(OutputStream out, JsonNode chunk) throws IOException {
        write(out, "data: " + JSON.writeValueAsString(chunk) + "\n\n");
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void pause(long millis) {
        if (millis > 0) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Scripts used by many tests. */
    public static final class Scripts {
        private Scripts() {
        }

        /** Turn 1 runs {@code command} with bash, turn 2 calls task_complete with {@code summary}. */
        public static Script bashThenComplete(String command, String summary) {
            return request -> {
                if (!request.used("bash")) {
                    return Reply.bash(command, 60).withText("I'll run a command.");
                }
                if (request.offers("task_complete") && !request.used("task_complete")) {
                    return Reply.taskComplete(summary);
                }
                return Reply.text("All done.");
            };
        }

        /**
         * Completes at once; once a prompt says the acceptance check failed (the launch script's words), runs
         * {@code fix} and completes again. Per conversation: one server can serve several builds.
         */
        public static Script completeThenFixWhenTold(String fix) {
            return request -> {
                String conversation = request.body().path("messages").toString();
                if (!conversation.contains("The acceptance check of this task failed")) {
                    return request.used("task_complete") ? Reply.text("Done.") : Reply.taskComplete("Implemented it.");
                }
                String last = lastTool(request.body());
                if ("task_complete".equals(last)) {
                    return Reply.bash(fix, 30).withText("Fixing the failure.");
                }
                return "bash".equals(last) ? Reply.taskComplete("Fixed it.") : Reply.text("Done.");
            };
        }

        private static String lastTool(JsonNode body) {
            JsonNode messages = body.path("messages");
            for (int i = messages.size() - 1; i >= 0; i--) {
                JsonNode calls = messages.get(i).path("tool_calls");
                if (calls.isArray() && !calls.isEmpty()) {
                    return calls.get(calls.size() - 1).path("function").path("name").asText();
                }
            }
            return null;
        }

        /**
         * For each new user message (a new run of a continued session, too): runs {@code command} with bash, then calls
         * task_complete with {@code summary}. Only what came after the conversation's last user message counts.
         */
        public static Script bashThenCompleteEachPrompt(String command, String summary) {
            return request -> {
                JsonNode messages = request.body().path("messages");
                int lastUser = -1;
                for (int i = 0; i < messages.size(); i++) {
                    if ("user".equals(messages.get(i).path("role").asText())) {
                        lastUser = i;
                    }
                }
                boolean ranBash = false;
                boolean completed = false;
                for (int i = lastUser + 1; i < messages.size(); i++) {
                    for (JsonNode call : messages.get(i).path("tool_calls")) {
                        String name = call.path("function").path("name").asText();
                        ranBash |= "bash".equals(name);
                        completed |= "task_complete".equals(name);
                    }
                }
                return !ranBash ? Reply.bash(command, 60).withText("I'll run a command.")
                        : !completed ? Reply.taskComplete(summary) : Reply.text("All done.");
            };
        }

        /**
         * Calls task_complete at once with {@code answers[0]} as its summary, and each time it is sent back (its answer
         * did not follow the schema, or the acceptance check failed) with the next answer (the last one again when
         * they run out). Per conversation.
         */
        public static Script answers(String... answers) {
            return request -> {
                JsonNode messages = request.body().path("messages");
                int sentBack = 0;
                int lastUser = -1;
                for (int i = 0; i < messages.size(); i++) {
                    JsonNode m = messages.get(i);
                    if ("user".equals(m.path("role").asText())) {
                        lastUser = i;
                        String text = m.path("content").toString();
                        if (text.contains("Call task_complete again with the corrected answer")
                                || text.contains("The acceptance check of this task failed")) {
                            sentBack++;
                        }
                    }
                }
                for (int i = lastUser + 1; i < messages.size(); i++) {
                    for (JsonNode call : messages.get(i).path("tool_calls")) {
                        if ("task_complete".equals(call.path("function").path("name").asText())) {
                            return Reply.text("Done.");
                        }
                    }
                }
                return Reply.taskComplete(answers[Math.min(sentBack, answers.length - 1)]);
            };
        }

        /** Answers with text first; completes once the CLI nudged it. */
        public static Script completeAfterNudge(String summary) {
            return request -> request.turn() == 1
                    ? Reply.text("I think I am done, but I did not call task_complete.")
                    : request.used("task_complete") ? Reply.text("All done.") : Reply.taskComplete(summary);
        }

        /** Never calls task_complete. */
        public static Script neverComplete() {
            return request -> Reply.text("Plain answer #" + request.turn() + ", no task_complete.");
        }

        public static Script always(Reply reply) {
            return request -> reply;
        }
    }

    /** How long a test may wait for a CLI session, generously. */
    public static final Duration SESSION_LIMIT = Duration.ofSeconds(90);
}
