package io.jenkins.plugins.copilotautopilot.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.AgentRequest;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Reply;
import io.jenkins.plugins.copilotautopilot.core.testing.ScriptedModelServer.Script;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A stand-in for GitHub's Copilot API on 127.0.0.1, so that the real Copilot CLI runs in GitHub-token mode (not BYOK)
 * offline: {@code /copilot_internal/user}, managed settings, {@code /models}, the model calls ({@code POST /responses},
 * answered by a {@link Script} as an OpenAI Responses stream), {@code --model auto} routing, and the failures the real
 * service answers with (429, 5xx, 402, 401, 403, a disabled model, managed settings). It records every request.
 * Routes and answers are the ones measured with CLI 1.0.102 against such a stand-in.
 *
 * <p>Start it with {@link #start(Script)}, configure it with the fluent methods (they may be called while it runs), give
 * the CLI {@link #environment} plus the token {@link #TOKEN}; {@link E2eRun#withGithub(GithubStandIn)} does all that.
 */
public final class GithubStandIn implements AutoCloseable {
    /** Of a fine-grained token's form, which the CLI accepts (a classic {@code ghp_} token it refuses before any request). */
    public static final String TOKEN = "github_pat_standin_11AAAAAAA0123456789abcdef";
    /** For {@code times}: the failure never stops. */
    public static final int ALWAYS = Integer.MAX_VALUE;
    /** A premium model (multiplier 1) with reasoning effort low, medium and high. */
    public static final String MODEL = "gpt-5";
    /** A model with multiplier 0 (the CLI's default choice when no model is given). */
    public static final String FREE_MODEL = "gpt-5-mini";
    /**
     * Besides every {@code COPILOT_PROVIDER*} variable: the variables that would put the CLI into BYOK mode, give it
     * another token or send it elsewhere.
     */
    public static final Set<String> NOT_IN_TOKEN_MODE = Set.of("COPILOT_OFFLINE", "COPILOT_MODEL", "COPILOT_GITHUB_TOKEN",
            "GH_TOKEN", "GITHUB_TOKEN", "COPILOT_API_URL", "COPILOT_DEBUG_GITHUB_API_URL", "XDG_CACHE_HOME");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> MODEL_CALLS = Set.of("/responses", "/chat/completions", "/v1/messages");

    /** One request as the stand-in received it; header names in lower case; {@code atNanos} from {@link System#nanoTime()}. */
    public record Request(String method, String path, String query, Map<String, String> headers, String body, long atNanos) {
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new IllegalStateException("not JSON: " + body, e);
            }
        }

        public boolean isModelCall() {
            return "POST".equals(method) && MODEL_CALLS.contains(path);
        }

        @Override
        public String toString() {
            return method + " " + path + (query == null ? "" : "?" + query);
        }
    }

    /** A failure answered instead of the route's answer, {@code remaining} times. */
    private static final class Fault {
        final Predicate<String> where;
        final int status;
        final Map<String, String> headers;
        final String body;
        final AtomicInteger remaining;

        Fault(Predicate<String> where, int status, Map<String, String> headers, String body, int times) {
            this.where = where;
            this.status = status;
            this.headers = headers;
            this.body = body;
            this.remaining = new AtomicInteger(times);
        }

        boolean take(String path) {
            if (!where.test(path)) {
                return false;
            }
            return remaining.getAndUpdate(n -> n == ALWAYS ? n : Math.max(0, n - 1)) > 0;
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "github-stand-in");
        t.setDaemon(true);
        return t;
    });
    private final Script script;
    private final AtomicInteger agentTurns = new AtomicInteger();
    private final AtomicInteger ids = new AtomicInteger();
    private final List<Request> requests = Collections.synchronizedList(new ArrayList<>());
    private final List<Fault> faults = new CopyOnWriteArrayList<>();
    private final Map<String, String> quotaSnapshots = Collections.synchronizedMap(new LinkedHashMap<>());
    private final Set<String> disabledModels = Collections.synchronizedSet(new java.util.HashSet<>());
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile Long nanoAiuPerCall = 1_000_000_000L;
    private volatile String managedSettings;
    private volatile String autoModel = MODEL;
    private volatile boolean keepRequests = true;

    private GithubStandIn(Script script) throws IOException {
        this.script = script;
        this.server = LoopbackHttp.start(executor, this::handle);
    }

    /** Starts a stand-in whose model answers as {@code script} says (the scripts of {@link ScriptedModelServer} work). */
    public static GithubStandIn start(Script script) throws IOException {
        return new GithubStandIn(script);
    }

    /** Its address, for {@code COPILOT_API_URL}, {@code COPILOT_DEBUG_GITHUB_API_URL} and the user's endpoints. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    // ---- scenarios ----

    /** AI credits each model call reports in {@code copilot_usage} (1 credit = 1e9 nano-AIU; default 1). */
    public GithubStandIn creditsPerCall(double credits) {
        return nanoAiuPerCall(Math.round(credits * 1e9));
    }

    public GithubStandIn nanoAiuPerCall(long nanoAiu) {
        this.nanoAiuPerCall = nanoAiu;
        return this;
    }

    /** Keeps no request from now on ({@link #requests()} stays as it is): a long run's bodies would fill the heap. */
    public GithubStandIn keepingNoRequests() {
        keepRequests = false;
        return this;
    }

    /** Model calls report tokens but no {@code copilot_usage}: the CLI then has no AI credits ({@code unavailable}). */
    public GithubStandIn withoutCopilotUsage() {
        this.nanoAiuPerCall = null;
        return this;
    }

    /** A header {@code x-quota-snapshot-<quotaId>} on model answers, e.g. {@code ent=300&ov=0.0&ovPerm=false&rem=10.5&rst=…}. */
    public GithubStandIn quotaSnapshot(String quotaId, String value) {
        quotaSnapshots.put(quotaId, value);
        return this;
    }

    /** The next {@code times} model calls get 429, with {@code Retry-After: retryAfterSeconds} unless it is null. */
    public GithubStandIn rateLimited(int times, Integer retryAfterSeconds) {
        Map<String, String> headers = retryAfterSeconds == null ? Map.of() : Map.of("retry-after", retryAfterSeconds.toString());
        return failModelCalls(429, times, headers, error("standin rate limit", "rate_limited"));
    }

    /** The next {@code times} model calls get {@code status} (500, 503, …). */
    public GithubStandIn serverError(int status, int times) {
        return failModelCalls(status, times, Map.of(), error("standin " + status, null));
    }

    /**
     * Every model call gets 402 with {@code {"error":{"message","code"}}}: {@code quota_exceeded},
     * {@code additional_spend_limit_reached}, {@code session_quota_exceeded}, ….
     */
    public GithubStandIn paymentRequired(String errorCode) {
        return failModelCalls(402, ALWAYS, Map.of(), error("standin: payment required (" + errorCode + ")", errorCode));
    }

    /** Every model call gets 401 (the other routes work). */
    public GithubStandIn unauthorizedModelCalls() {
        return failModelCalls(401, ALWAYS, Map.of(), error("Bad credentials", null));
    }

    /** Every route answers 401, as for a revoked token. */
    public GithubStandIn unauthorizedEverywhere() {
        return fail(path -> true, 401, ALWAYS, Map.of(), "{\"message\":\"Bad credentials\",\"status\":\"401\"}");
    }

    /** {@code GET /models} answers 403, as when the CLI is disabled by policy for the account. */
    public GithubStandIn modelsForbidden() {
        return fail("/models"::equals, 403, ALWAYS, Map.of(),
                error("Copilot CLI is disabled by your organization's policy.", "feature_disabled"));
    }

    /** The model is listed with {@code policy.state: "disabled"}. */
    public GithubStandIn disableModel(String id) {
        disabledModels.add(id);
        return this;
    }

    /** The answer of {@code /copilot_internal/managed_settings} (default: 404, no policy). */
    public GithubStandIn managedSettings(String json) {
        this.managedSettings = json;
        return this;
    }

    /** Managed settings that disable bypass-permissions mode: {@code --allow-all-tools} is overridden. */
    public GithubStandIn blockBypassPermissions() {
        return managedSettings("{\"permissions\":{\"disableBypassPermissionsMode\":\"disable\"}}");
    }

    /** What {@code POST /auto} selects for {@code --model auto} (default {@link #MODEL}). */
    public GithubStandIn autoRoutesTo(String id) {
        this.autoModel = id;
        return this;
    }

    /** {@code POST /auto} and {@code POST /models/session} answer 404: the CLI falls back to its default model. */
    public GithubStandIn autoRoutingFails() {
        this.autoModel = null;
        return this;
    }

    /** The next {@code times} model calls get {@code status} with these headers and body. */
    public GithubStandIn failModelCalls(int status, int times, Map<String, String> headers, String body) {
        return fail(MODEL_CALLS::contains, status, times, headers, body);
    }

    /** The next {@code times} requests of {@code path} get {@code status} with this body. */
    public GithubStandIn failRoute(String path, int status, int times, String body) {
        return fail(path::equals, status, times, Map.of(), body);
    }

    private GithubStandIn fail(Predicate<String> where, int status, int times, Map<String, String> headers, String body) {
        faults.add(new Fault(where, status, headers, body, times));
        return this;
    }

    // ---- what it saw ----

    /** Every request, in order. */
    public List<Request> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    public List<Request> requests(String path) {
        return requests().stream().filter(r -> r.path().equals(path)).toList();
    }

    /** The model calls ({@code POST /responses} and the like), failed ones too. */
    public List<Request> modelCalls() {
        return requests().stream().filter(Request::isModelCall).toList();
    }

    /** Agent requests (with tools) the script answered. */
    public int agentTurns() {
        return agentTurns.get();
    }

    // ---- the CLI's environment ----

    /**
     * {@code inherited} made into GitHub-token mode against this stand-in: no BYOK variables, no other token, the API
     * URLs pointing here, and {@code XDG_CACHE_HOME} = {@code cacheHome} (the CLI caches the user's answer there).
     * The token itself is not added: it goes into the task ({@code SessionTask.withGithubToken(TOKEN)}), or into a
     * runner's {@code COPILOT_GITHUB_TOKEN}.
     */
    public Map<String, String> environment(Map<String, String> inherited, Path cacheHome) throws IOException {
        Map<String, String> env = new HashMap<>(inherited);
        env.keySet().removeIf(name -> name.startsWith("COPILOT_PROVIDER") || NOT_IN_TOKEN_MODE.contains(name));
        env.put("COPILOT_API_URL", url());
        env.put("COPILOT_DEBUG_GITHUB_API_URL", url());
        env.put("XDG_CACHE_HOME", freshCache(cacheHome, inherited).toString());
        return env;
    }

    /**
     * Only the variables that point the CLI here: {@code COPILOT_API_URL}, {@code COPILOT_DEBUG_GITHUB_API_URL} and
     * {@code XDG_CACHE_HOME} = {@code cacheHome} (its {@code copilot/pkg} this JVM's), e.g. for a Pipeline's
     * {@code withEnv} in a plugin test. Where they are added, no {@code COPILOT_PROVIDER*} variable may be set.
     */
    public Map<String, String> variables(Path cacheHome) throws IOException {
        Map<String, String> env = environment(System.getenv(), cacheHome);
        Map<String, String> only = new LinkedHashMap<>();
        for (String name : List.of("COPILOT_API_URL", "COPILOT_DEBUG_GITHUB_API_URL", "XDG_CACHE_HOME")) {
            only.put(name, env.get(name));
        }
        return only;
    }

    /**
     * A new cache folder whose {@code copilot/pkg} (the CLI's unpacked self, ~235 MB) is the inherited cache's, so that
     * the CLI need not unpack itself for every session; all else in it (the cached user answer) is new.
     */
    static Path freshCache(Path cacheHome, Map<String, String> inherited) throws IOException {
        Path copilot = Files.createDirectories(cacheHome.resolve("copilot"));
        String xdg = inherited.get("XDG_CACHE_HOME");
        String home = inherited.get("HOME");
        Path shared = xdg != null && !xdg.isBlank() ? Path.of(xdg) : home != null && !home.isBlank() ? Path.of(home, ".cache") : null;
        if (shared != null && Files.isDirectory(shared.resolve("copilot/pkg")) && !Files.exists(copilot.resolve("pkg"))) {
            Files.createSymbolicLink(copilot.resolve("pkg"), shared.resolve("copilot/pkg"));
        }
        return cacheHome;
    }

    @Override
    public void close() {
        closed.countDown();
        server.stop(0);
        executor.shutdownNow();
    }

    // ---- the routes ----

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            long at = System.nanoTime();
            String method = exchange.getRequestMethod();
            String path = exchange.getRequestURI().getPath();
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Map<String, String> headers = new LinkedHashMap<>();
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), String.join(", ", v)));
            if (keepRequests) {
                requests.add(new Request(method, path, exchange.getRequestURI().getRawQuery(), Map.copyOf(headers), body, at));
            }
            for (Fault fault : faults) {
                if (fault.take(path)) {
                    fault.headers.forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
                    sendJson(exchange, fault.status, fault.body);
                    return;
                }
            }
            switch (method + " " + path) {
                case "GET /copilot_internal/user" -> sendJson(exchange, 200, user());
                case "GET /copilot_internal/managed_settings" -> {
                    String settings = managedSettings;
                    sendJson(exchange, settings == null ? 404 : 200, settings == null ? notFound() : settings);
                }
                case "GET /models" -> sendJson(exchange, 200, models());
                case "POST /auto" -> {
                    String chosen = autoModel;
                    sendJson(exchange, chosen == null ? 404 : 200, chosen == null ? notFound()
                            : "{\"selected_model\":{\"id\":\"" + chosen + "\"},\"session_token\":\"standin-auto-session-token\","
                            + "\"routing_method\":\"standin\"}");
                }
                case "POST /responses" -> responses(exchange, JSON.readTree(body));
                // /models/session (the fallback of /auto; its answer's shape was not measured), team customizations,
                // the built-in MCP server, the memory feature, the MCP registry: none here, which the CLI tolerates
                default -> sendJson(exchange, 404, notFound());
            }
        } catch (IOException e) {
            // the CLI went away mid-answer (killed by a test): nothing to do
        }
    }

    private String user() {
        String at = url();
        String unlimited = "{\"entitlement\":0,\"overage_count\":0,\"overage_permitted\":false,\"percent_remaining\":100.0,"
                + "\"quota_id\":\"%s\",\"quota_remaining\":0.0,\"remaining\":0,\"unlimited\":true,\"timestamp_utc\":\"2026-12-06T00:00:00.000Z\"}";
        return "{\"login\":\"standin-user\",\"access_type_sku\":\"plus_monthly_subscriber_quota\","
                + "\"analytics_tracking_id\":\"0123456789abcdef0123456789abcdef\",\"assigned_date\":\"2025-01-01T00:00:00+00:00\","
                + "\"can_signup_for_limited\":false,\"chat_enabled\":true,\"copilot_plan\":\"individual_pro\","
                + "\"copilotignore_enabled\":false,\"codex_agent_enabled\":false,\"restricted_telemetry\":false,"
                + "\"organization_login_list\":[],\"organization_list\":[],"
                + "\"endpoints\":{\"api\":\"" + at + "\",\"proxy\":\"" + at + "\",\"telemetry\":\"" + at + "\",\"origin-tracker\":\"" + at + "\"},"
                + "\"quota_reset_date\":\"2027-01-01\",\"quota_reset_date_utc\":\"2027-01-01T00:00:00.000Z\","
                + "\"quota_snapshots\":{\"chat\":" + unlimited.formatted("chat") + ",\"completions\":" + unlimited.formatted("completions")
                + ",\"premium_interactions\":{\"entitlement\":300,\"overage_count\":0,\"overage_permitted\":false,"
                + "\"percent_remaining\":83.3,\"quota_id\":\"premium_interactions\",\"quota_remaining\":250.0,\"remaining\":250,"
                + "\"unlimited\":false,\"timestamp_utc\":\"2026-12-06T00:00:00.000Z\"}}}";
    }

    private String models() {
        ObjectNode root = JSON.createObjectNode().put("object", "list");
        ArrayNode data = root.putArray("data");
        model(data.addObject(), MODEL, "GPT-5", 1, true);
        model(data.addObject(), FREE_MODEL, "GPT-5 mini", 0, false);
        return root.toString();
    }

    private void model(ObjectNode m, String id, String name, int multiplier, boolean premium) {
        m.put("id", id).put("name", name).put("object", "model").put("vendor", "Azure OpenAI").put("version", id)
                .put("preview", false).put("model_picker_enabled", true).put("model_picker_category", "versatile")
                .put("is_chat_default", false).put("is_chat_fallback", false);
        m.putObject("billing").put("is_premium", premium).put("multiplier", multiplier);
        m.putObject("policy").put("state", disabledModels.contains(id) ? "disabled" : "enabled")
                .put("terms", "Enable access to the model.");
        ObjectNode caps = m.putObject("capabilities").put("family", id).put("type", "chat").put("object", "model_capabilities")
                .put("tokenizer", "o200k_base");
        caps.putObject("limits").put("max_context_window_tokens", 200000).put("max_output_tokens", 16000)
                .put("max_prompt_tokens", 128000);
        ObjectNode supports = caps.putObject("supports").put("streaming", true).put("tool_calls", true)
                .put("parallel_tool_calls", true).put("vision", true).put("structured_outputs", true);
        supports.putArray("reasoning_effort").add("low").add("medium").add("high");
        m.putArray("supported_endpoints").add("/chat/completions").add("/responses");
    }

    // ---- the model: the Responses API ----

    private void responses(HttpExchange exchange, JsonNode body) throws IOException {
        ObjectNode conversation = asChatCompletions(body);
        boolean agent = conversation.path("tools").size() > 0;
        Reply reply = agent
                ? script.reply(new AgentRequest(agentTurns.incrementAndGet(), conversation, usedTools(conversation)))
                : Reply.text("Scripted session title");
        if (reply.status != 0) {
            sendJson(exchange, reply.status, error(reply.errorMessage, null));
            return;
        }
        int n = ids.incrementAndGet();
        String model = body.path("model").asText(MODEL);
        exchange.getResponseHeaders().add("x-github-request-id", "STANDIN:" + n);
        quotaSnapshots.forEach((id, value) -> exchange.getResponseHeaders().add("x-quota-snapshot-" + id, value));
        ObjectNode response = JSON.createObjectNode().put("id", "resp_standin_" + n).put("object", "response")
                .put("created_at", System.currentTimeMillis() / 1000).put("status", "in_progress").put("model", model);
        ArrayNode output = response.putArray("output");
        ObjectNode message = null;
        if (reply.text != null) {
            message = output.addObject().put("id", "msg_standin_" + n).put("type", "message").put("status", "completed")
                    .put("role", "assistant");
            message.putArray("content").addObject().put("type", "output_text").put("text", reply.text).putArray("annotations");
        }
        ObjectNode call = null;
        if (reply.toolName != null) {
            call = output.addObject().put("id", "fc_standin_" + n).put("type", "function_call").put("status", "completed")
                    .put("call_id", "call_standin_" + n).put("name", reply.toolName).put("arguments", reply.toolArguments);
        }
        ObjectNode completed = response.deepCopy().put("status", "completed");
        ObjectNode usage = completed.putObject("usage").put("input_tokens", reply.promptTokens)
                .put("output_tokens", reply.completionTokens).put("total_tokens", reply.promptTokens + reply.completionTokens);
        usage.putObject("input_tokens_details").put("cached_tokens", 0);
        usage.putObject("output_tokens_details").put("reasoning_tokens", 0);
        Long nanoAiu = nanoAiuPerCall;
        if (nanoAiu != null) {
            ObjectNode copilotUsage = completed.putObject("copilot_usage").put("model", model).put("total_nano_aiu", nanoAiu);
            // the cost split over the tokens as the service does, input and output at the same price per batch
            long tokens = Math.max(1, reply.promptTokens + reply.completionTokens);
            long perBatch = nanoAiu * 1_000_000L / tokens;
            ArrayNode details = copilotUsage.putArray("token_details");
            details.addObject().put("token_type", "input").put("token_count", reply.promptTokens).put("batch_size", 1_000_000)
                    .put("cost_per_batch", perBatch).put("model", model);
            details.addObject().put("token_type", "output").put("token_count", reply.completionTokens).put("batch_size", 1_000_000)
                    .put("cost_per_batch", perBatch).put("model", model);
        }
        if (!body.path("stream").asBoolean(false)) {
            sendJson(exchange, 200, completed.toString());
            return;
        }
        exchange.getResponseHeaders().add("content-type", "text/event-stream");
        exchange.getResponseHeaders().add("cache-control", "no-cache");
        exchange.sendResponseHeaders(200, 0);
        Sse out = new Sse(exchange.getResponseBody());
        ObjectNode started = response.deepCopy();
        started.putArray("output");
        out.event("response.created", JSON.createObjectNode().set("response", started));
        if (reply.stall) {
            try {
                closed.await(10, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return;
        }
        if (reply.malformed) {
            out.raw("event: response.output_item.added\ndata: {\"type\": \"response.output_item.added\", \"item\": \n\ndata: not json at all\n\n");
            return;
        }
        out.event("response.in_progress", JSON.createObjectNode().set("response", started));
        int index = 0;
        if (message != null) {
            String itemId = message.path("id").asText();
            ObjectNode added = message.deepCopy().put("status", "in_progress");
            added.putArray("content");
            out.event("response.output_item.added", item(index, added));
            ObjectNode emptyPart = JSON.createObjectNode().put("type", "output_text").put("text", "");
            emptyPart.putArray("annotations");
            out.event("response.content_part.added", part(itemId, index).set("part", emptyPart));
            for (int i = 0; i < reply.text.length(); i += reply.chunk) {
                out.event("response.output_text.delta", part(itemId, index)
                        .put("delta", reply.text.substring(i, Math.min(reply.text.length(), i + reply.chunk))));
                pause(reply.delayMs);
            }
            out.event("response.output_text.done", part(itemId, index).put("text", reply.text));
            out.event("response.content_part.done", part(itemId, index).set("part", message.path("content").get(0)));
            out.event("response.output_item.done", item(index, message));
            index++;
        }
        if (call != null) {
            String itemId = call.path("id").asText();
            out.event("response.output_item.added", item(index, call.deepCopy().put("status", "in_progress").put("arguments", "")));
            String args = reply.toolArguments;
            for (int i = 0; i < args.length(); i += 30) {
                out.event("response.function_call_arguments.delta", JSON.createObjectNode().put("item_id", itemId)
                        .put("output_index", index).put("delta", args.substring(i, Math.min(args.length(), i + 30))));
            }
            out.event("response.function_call_arguments.done", JSON.createObjectNode().put("item_id", itemId)
                    .put("output_index", index).put("arguments", args));
            out.event("response.output_item.done", item(index, call));
        }
        out.event("response.completed", JSON.createObjectNode().set("response", completed));
    }

    private static ObjectNode item(int index, ObjectNode item) {
        ObjectNode e = JSON.createObjectNode().put("output_index", index);
        e.set("item", item);
        return e;
    }

    private static ObjectNode part(String itemId, int index) {
        return JSON.createObjectNode().put("item_id", itemId).put("output_index", index).put("content_index", 0);
    }

    /**
     * The Responses request as the Chat Completions request the scripts of {@link ScriptedModelServer} read: its
     * {@code input} items as {@code messages} (function calls as an assistant's {@code tool_calls}, their outputs as
     * {@code tool} messages), its tools as {@code {type, function:{name}}}.
     */
    static ObjectNode asChatCompletions(JsonNode body) {
        ObjectNode chat = JSON.createObjectNode().put("model", body.path("model").asText());
        ArrayNode messages = chat.putArray("messages");
        if (body.hasNonNull("instructions")) {
            messages.addObject().put("role", "system").put("content", body.path("instructions").asText());
        }
        JsonNode input = body.path("input");
        if (input.isTextual()) {
            messages.addObject().put("role", "user").put("content", input.asText());
        }
        for (JsonNode item : input) {
            String type = item.path("type").asText(item.has("role") ? "message" : "");
            switch (type) {
                case "message" -> {
                    JsonNode content = item.path("content");
                    String text;
                    if (content.isTextual()) {
                        text = content.asText();
                    } else {
                        StringBuilder joined = new StringBuilder();
                        content.forEach(part -> joined.append(part.path("text").asText()));
                        text = joined.toString();
                    }
                    messages.addObject().put("role", item.path("role").asText()).put("content", text);
                }
                case "function_call" -> {
                    ObjectNode m = messages.addObject().put("role", "assistant");
                    m.putNull("content");
                    ObjectNode call = m.putArray("tool_calls").addObject().put("id", item.path("call_id").asText())
                            .put("type", "function");
                    call.putObject("function").put("name", item.path("name").asText())
                            .put("arguments", item.path("arguments").asText());
                }
                case "function_call_output" -> messages.addObject().put("role", "tool")
                        .put("tool_call_id", item.path("call_id").asText()).put("content", item.path("output").toString());
                default -> {
                    // reasoning items and the like: nothing the scripts read
                }
            }
        }
        ArrayNode tools = chat.putArray("tools");
        for (JsonNode tool : body.path("tools")) {
            tools.addObject().put("type", "function").putObject("function").put("name", tool.path("name").asText());
        }
        return chat;
    }

    private static List<String> usedTools(JsonNode chat) {
        List<String> used = new ArrayList<>();
        for (JsonNode message : chat.path("messages")) {
            for (JsonNode call : message.path("tool_calls")) {
                used.add(call.path("function").path("name").asText());
            }
        }
        return used;
    }

    /** The service's error body: {@code {"error":{"message","code"}}}. */
    static String error(String message, String code) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode error = root.putObject("error").put("message", message);
        if (code != null) {
            error.put("code", code);
        }
        return root.toString();
    }

    private static String notFound() {
        return "{\"message\":\"Not Found\",\"documentation_url\":\"https://docs.github.com/rest\",\"status\":\"404\"}";
    }

    private static void sendJson(HttpExchange exchange, int status, String body) throws IOException {
        LoopbackHttp.sendJson(exchange, status, body.getBytes(StandardCharsets.UTF_8));
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

    /** Server-sent events, each with its {@code type} and {@code sequence_number}. */
    private static final class Sse {
        private final OutputStream out;
        private int sequence;

        Sse(OutputStream out) {
            this.out = out;
        }

        void event(String type, ObjectNode data) throws IOException {
            ObjectNode event = JSON.createObjectNode().put("type", type).put("sequence_number", sequence++);
            event.setAll(data);
            raw("event: " + type + "\ndata: " + JSON.writeValueAsString(event) + "\n\n");
        }

        void raw(String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
    }
}
