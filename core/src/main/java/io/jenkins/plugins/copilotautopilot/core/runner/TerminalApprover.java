package io.jenkins.plugins.copilotautopilot.core.runner;

import io.jenkins.plugins.copilotautopilot.core.approval.ApprovalDecision;
import io.jenkins.plugins.copilotautopilot.core.approval.ApprovalGate;
import io.jenkins.plugins.copilotautopilot.core.approval.PendingApproval;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * The runner's approver ({@code --approve-tool}): asks on the terminal, one call at a time, and takes {@code y} or
 * {@code yes} as approval; without a terminal it denies each call at once, so that an unattended run never waits.
 */
final class TerminalApprover implements Consumer<ApprovalGate> {
    static final String USER = System.getProperty("user.name", "the terminal's user");
    private final BufferedReader terminal;
    private final PrintStream out;
    private final ExecutorService asking = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, RunnerMain.NAME + "-approval");
        t.setDaemon(true);
        return t;
    });

    /** @param terminal the terminal to read answers from, or null when there is none */
    TerminalApprover(BufferedReader terminal, PrintStream out) {
        this.terminal = terminal;
        this.out = out;
    }

    /** The terminal of this process, when it has one (standard input and output both a terminal). */
    static BufferedReader processTerminal() {
        java.io.Console console = System.console();
        if (console == null) {
            return null;
        }
        try {
            // Java 22 and later have a console also when redirected, and say whether it is a terminal
            Object terminal = java.io.Console.class.getMethod("isTerminal").invoke(console);
            if (Boolean.FALSE.equals(terminal)) {
                return null;
            }
        } catch (ReflectiveOperationException e) {
            // before Java 22, a console is a terminal
        }
        return new BufferedReader(console.reader());
    }

    @Override
    public void accept(ApprovalGate gate) {
        gate.addListener(new ApprovalGate.Listener() {
            @Override
            public void requested(PendingApproval call) {
                if (terminal == null) {
                    gate.decide(call.id(), false, "the runner (no terminal to ask on)", System.currentTimeMillis());
                } else {
                    asking.submit(() -> ask(gate, call));
                }
            }

            @Override
            public void decided(PendingApproval call, ApprovalDecision decision) {
                // the log says it
            }
        });
    }

    private void ask(ApprovalGate gate, PendingApproval call) {
        if (gate.pending().stream().noneMatch(p -> p.id().equals(call.id()))) {
            return; // decided meanwhile (the wait ran out)
        }
        out.println(RunnerMain.NAME + ": run " + call.tool() + " " + call.arguments() + " (approveTools " + call.pattern() + ")? [y/N]");
        out.flush();
        String answer;
        try {
            answer = terminal.readLine();
        } catch (IOException e) {
            answer = null;
        }
        boolean yes = answer != null && (answer.strip().equalsIgnoreCase("y") || answer.strip().equalsIgnoreCase("yes"));
        gate.decide(call.id(), yes, USER, System.currentTimeMillis());
    }
}
