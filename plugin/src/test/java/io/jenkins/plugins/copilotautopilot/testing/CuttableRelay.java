package io.jenkins.plugins.copilotautopilot.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay on 127.0.0.1 between an inbound agent and the controller: {@link #cut()} closes every connection through
 * it at once, as a network that drops an agent's connection does, while both JVMs live on (the agent connects again by
 * itself). Connections made while the controller is down are closed at once, as a refused connection would be.
 */
public final class CuttableRelay implements AutoCloseable {
    private final ServerSocket server;
    private final int target;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private CuttableRelay(int target) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::accept, "soak-relay-" + server.getLocalPort());
        accept.setDaemon(true);
        accept.start();
    }

    /** A relay to {@code port} on 127.0.0.1. */
    public static CuttableRelay to(int port) throws IOException {
        return new CuttableRelay(port);
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Closes every connection through the relay; new ones are relayed as before. Returns how many were cut. */
    public int cut() {
        int n = 0;
        for (Socket s : open) {
            close(s);
            n++;
        }
        return n / 2;
    }

    private void accept() {
        while (!closed) {
            Socket in;
            try {
                in = server.accept();
            } catch (IOException e) {
                return;
            }
            Socket out = new Socket();
            try {
                out.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), target), 5_000);
            } catch (IOException e) {
                close(in);
                close(out);
                continue;
            }
            open.add(in);
            open.add(out);
            pump(in, out);
            pump(out, in);
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream input = from.getInputStream(); OutputStream output = to.getOutputStream()) {
                int n;
                while ((n = input.read(buffer)) >= 0) {
                    output.write(buffer, 0, n);
                    output.flush();
                }
            } catch (IOException e) {
                // cut, or closed by either end: the other direction ends with it
            } finally {
                close(from);
                close(to);
            }
        }, "soak-relay-pump");
        t.setDaemon(true);
        t.start();
    }

    private void close(Socket s) {
        open.remove(s);
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        cut();
    }
}
