package io.jenkins.plugins.copilotautopilot.core.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/** A download server on 127.0.0.1 for the installer tests: fixed bodies, redirects, 404s, and a hit count per path. */
public final class FileServer implements AutoCloseable {
    /** Writes a response body. */
    public interface Body {
        void writeTo(OutputStream out) throws IOException;
    }

    private final HttpServer server;
    private final Map<String, Body> bodies = new ConcurrentHashMap<>();
    private final Map<String, String> redirects = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();

    private FileServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "file-server");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/", this::handle);
        server.start();
    }

    public static FileServer start() throws IOException {
        return new FileServer();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public FileServer serve(String path, byte[] body) {
        bodies.put(path, out -> out.write(body));
        return this;
    }

    public FileServer serve(String path, Body body) {
        bodies.put(path, body);
        return this;
    }

    public FileServer redirect(String path, String to) {
        redirects.put(path, to);
        return this;
    }

    public int hits(String path) {
        AtomicInteger n = hits.get(path);
        return n == null ? 0 : n.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            hits.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
            String to = redirects.get(path);
            if (to != null) {
                exchange.getResponseHeaders().add("Location", to);
                exchange.sendResponseHeaders(302, -1);
                return;
            }
            Body body = bodies.get(path);
            if (body == null) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                body.writeTo(out);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
