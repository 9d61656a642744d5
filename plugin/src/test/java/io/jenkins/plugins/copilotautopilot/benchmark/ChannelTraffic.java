package io.jenkins.plugins.copilotautopilot.benchmark;

import hudson.remoting.Channel;
import hudson.remoting.Command;
import hudson.remoting.Request;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts what crosses the agent's channel, on the controller's end: the requests (remoting's {@link Request}
 * commands: a call, a remote method invocation, a pipe's read; each is answered by a response, so a request is a
 * round trip) written to the agent and read from it, every command both ways (requests, responses, the chunks a pipe
 * streams one way and their acknowledgements) and their bytes. With {@code kinds}, the commands are also tallied by
 * kind (a request by what it calls, its text with numbers left out), with their bytes, which costs a little more CPU per command; off for
 * the measured runs.
 */
final class ChannelTraffic extends Channel.Listener {
    private final LongAdder requestsOut = new LongAdder();
    private final LongAdder requestsIn = new LongAdder();
    private final LongAdder commandsOut = new LongAdder();
    private final LongAdder commandsIn = new LongAdder();
    private final LongAdder bytesOut = new LongAdder();
    private final LongAdder bytesIn = new LongAdder();
    /** By kind: how many, how many bytes. */
    private final Map<String, LongAdder[]> kinds;

    ChannelTraffic(boolean kinds) {
        this.kinds = kinds ? new ConcurrentHashMap<>() : null;
    }

    record Counts(long requestsOut, long requestsIn, long commandsOut, long commandsIn, long bytesOut, long bytesIn) {
        Counts minus(Counts o) {
            return new Counts(requestsOut - o.requestsOut, requestsIn - o.requestsIn, commandsOut - o.commandsOut,
                    commandsIn - o.commandsIn, bytesOut - o.bytesOut, bytesIn - o.bytesIn);
        }

        long requests() {
            return requestsOut + requestsIn;
        }

        long bytes() {
            return bytesOut + bytesIn;
        }
    }

    Counts counts() {
        return new Counts(requestsOut.sum(), requestsIn.sum(), commandsOut.sum(), commandsIn.sum(), bytesOut.sum(), bytesIn.sum());
    }

    @Override
    public void onWrite(Channel channel, Command cmd, long blockSize) {
        commandsOut.increment();
        bytesOut.add(blockSize);
        if (cmd instanceof Request) {
            requestsOut.increment();
        }
        tally("to the agent: ", cmd, blockSize);
    }

    @Override
    public void onRead(Channel channel, Command cmd, long blockSize) {
        commandsIn.increment();
        bytesIn.add(blockSize);
        if (cmd instanceof Request) {
            requestsIn.increment();
        }
        tally("from the agent: ", cmd, blockSize);
    }

    private void tally(String direction, Command cmd, long bytes) {
        if (kinds != null) {
            // a request by what it calls; another command (a response, a pipe's chunk or its acknowledgement) by its class
            String text = cmd instanceof Request ? cmd.toString() : cmd.getClass().getName();
            String kind = direction + (text.length() > 160 ? text.substring(0, 160) + "…" : text)
                    .replaceAll("@[0-9a-f]+", "").replaceAll("[0-9]+", "#");
            LongAdder[] tally = kinds.computeIfAbsent(kind, k -> new LongAdder[] {new LongAdder(), new LongAdder()});
            tally[0].increment();
            tally[1].add(bytes);
        }
    }

    /** The commands by kind so far, each {how many, their bytes} (empty unless asked for), and starts counting them again. */
    Map<String, long[]> takeKinds() {
        Map<String, long[]> taken = new TreeMap<>();
        if (kinds != null) {
            kinds.forEach((k, v) -> taken.put(k, new long[] {v[0].sumThenReset(), v[1].sumThenReset()}));
            taken.values().removeIf(v -> v[0] == 0);
        }
        return taken;
    }
}
