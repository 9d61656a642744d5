package io.jenkins.plugins.copilotautopilot.core.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;

/** What the tests' HTTP stand-ins share: a server on 127.0.0.1 at a free port, and a JSON answer. */
final class LoopbackHttp {
    private LoopbackHttp() {
    }

    /** A started server on the loopback address, every path handled by {@code handler} on {@code executor}. */
    static HttpServer start(ExecutorService executor, HttpHandler handler) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(executor);
        server.createContext("/", handler);
        server.start();
        return server;
    }

    static void sendJson(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.getResponseHeaders().add("content-type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
    }
}
