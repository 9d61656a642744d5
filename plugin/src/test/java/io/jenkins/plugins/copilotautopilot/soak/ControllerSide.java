package io.jenkins.plugins.copilotautopilot.soak;

import io.jenkins.plugins.copilotautopilot.pages.CopilotAutopilotRunAction;
import io.jenkins.plugins.copilotautopilot.pages.LiveSessions;
import io.jenkins.plugins.copilotautopilot.pages.ModelUsageRecord;
import io.jenkins.plugins.copilotautopilot.pages.SessionRecord;
import io.jenkins.plugins.copilotautopilot.step.CopilotAutopilotBuilder;
import io.jenkins.plugins.copilotautopilot.step.CopilotAutopilotStep;

import com.cloudbees.plugins.credentials.CredentialsProvider;
import com.cloudbees.plugins.credentials.CredentialsScope;
import com.cloudbees.plugins.credentials.domains.Domain;
import hudson.console.ConsoleNote;
import hudson.model.Computer;
import hudson.model.Executor;
import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import hudson.model.Job;
import hudson.model.Label;
import hudson.model.Node;
import hudson.model.Result;
import hudson.model.Run;
import hudson.slaves.DumbSlave;
import hudson.slaves.EnvironmentVariablesNodeProperty;
import hudson.slaves.JNLPLauncher;
import hudson.slaves.RetentionStrategy;
import hudson.slaves.SlaveComputer;
import hudson.util.Secret;
import io.jenkins.plugins.copilotautopilot.core.approval.PendingApproval;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Serializable;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jenkins.model.Jenkins;
import org.jenkinsci.plugins.plaincredentials.impl.StringCredentialsImpl;
import org.jenkinsci.plugins.workflow.actions.LogAction;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.cps.nodes.StepAtomNode;
import org.jenkinsci.plugins.workflow.flow.FlowExecution;
import org.jenkinsci.plugins.workflow.graph.FlowNode;
import org.jenkinsci.plugins.workflow.graphanalysis.DepthFirstScanner;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;

/**
 * What the harness does in the controller's JVM (through {@code RealJenkinsExtension.runRemotely}): sets it up, starts
 * builds, reads what they ended with, decides approvals, aborts, and measures the heap. Everything it returns is
 * plain and serializable; it keeps no state, so that it works the same after the controller was killed.
 */
final class ControllerSide {
    static final String LABEL = "soak";

    private ControllerSide() {
    }

    /** An agent the controller is to have. */
    record AgentSpec(String name, String root, int executors, Map<String, String> variables) implements Serializable {
    }

    /** A build the harness started: its job and number. */
    record BuildRef(String job, int number) implements Serializable {
        @Override
        public String toString() {
            return job + " #" + number;
        }
    }

    /** One session of an ended build: its own lines in the console and its record. */
    record SessionFacts(String invocationId, List<String> lines, String outcome, int turns, int toolCalls, long tokens,
                        double aiCredits, String summary) implements Serializable {
    }

    /** An ended build: its result, console, the agents it ran on, and its sessions. */
    record BuildFacts(BuildRef ref, String result, long startMillis, long durationMillis, List<String> console,
                      List<String> agents, List<SessionFacts> sessions, List<SessionFacts> recordsWithoutLines) implements Serializable {
        /** Every session the build recorded, also those whose step Jenkins lost with its flow. */
        List<SessionFacts> recorded() {
            List<SessionFacts> all = new ArrayList<>(sessions);
            all.addAll(recordsWithoutLines);
            return all;
        }
    }

    /** Where a build is now. */
    record BuildState(BuildRef ref, String state) implements Serializable {
    }

    /** A call that waits for a person. */
    record Waiting(BuildRef ref, String invocationId, String callId) implements Serializable {
    }

    /** Adds the credential, the agents (returning their secrets) and {@code jobsPerKind} jobs of each of {@code kinds}. */
    static Map<String, String> setUp(String token, List<AgentSpec> agents, int jobsPerKind, List<SessionKind> kinds, String insideArgs)
            throws Exception {
        Jenkins j = Jenkins.get();
        j.setNumExecutors(0);
        CredentialsProvider.lookupStores(j).iterator().next().addCredentials(Domain.global(),
                new StringCredentialsImpl(CredentialsScope.GLOBAL, SessionKind.CREDENTIAL, "soak", Secret.fromString(token)));
        Map<String, String> secrets = new LinkedHashMap<>();
        for (AgentSpec a : agents) {
            DumbSlave agent = new DumbSlave(a.name(), a.root(), new JNLPLauncher());
            agent.setLabelString(LABEL);
            agent.setNumExecutors(a.executors());
            agent.setRetentionStrategy(RetentionStrategy.Always.INSTANCE);
            EnvironmentVariablesNodeProperty env = new EnvironmentVariablesNodeProperty();
            a.variables().forEach((k, v) -> env.getEnvVars().put(k, v));
            agent.getNodeProperties().add(env);
            j.addNode(agent);
            secrets.put(a.name(), ((SlaveComputer) agent.toComputer()).getJnlpMac());
        }
        for (SessionKind kind : kinds) {
            for (int i = 1; i <= jobsPerKind; i++) {
                String name = jobName(kind, i);
                if (kind.freestyle()) {
                    FreeStyleProject p = j.createProject(FreeStyleProject.class, name);
                    p.setAssignedLabel(Label.get(LABEL));
                    CopilotAutopilotStep step = new CopilotAutopilotStep(kind.tag() + " Do the task.");
                    step.setCredentialsId(SessionKind.CREDENTIAL);
                    step.setModel("gpt-5");
                    step.setAllowAllTools(true);
                    p.getBuildersList().add(new CopilotAutopilotBuilder(step));
                    p.save();
                } else {
                    WorkflowJob p = j.createProject(WorkflowJob.class, name);
                    p.setDefinition(new CpsFlowDefinition(kind.pipeline(insideArgs), true));
                    p.save();
                }
            }
        }
        return secrets;
    }

    static String jobName(SessionKind kind, int i) {
        return kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-') + "-" + i;
    }

    /** Whether every agent is online. */
    static boolean online(List<String> agents) {
        for (String name : agents) {
            Node n = Jenkins.get().getNode(name);
            Computer c = n == null ? null : n.toComputer();
            if (c == null || !c.isOnline()) {
                return false;
            }
        }
        return true;
    }

    /** Starts the next build of {@code job}, whose builds have all ended; returns its number. */
    static BuildRef start(String job) {
        Job<?, ?> p = Jenkins.get().getItemByFullName(job, Job.class);
        int number = p.getNextBuildNumber();
        if (p instanceof WorkflowJob w) {
            w.scheduleBuild2(0);
        } else {
            ((FreeStyleProject) p).scheduleBuild2(0);
        }
        return new BuildRef(job, number);
    }

    /**
     * For each build: QUEUED (no build yet, its job in the queue), GONE (no build and nothing queued: a controller killed
     * before it saved its queue forgets what was queued), RUNNING, or ENDED.
     */
    static ArrayList<BuildState> states(List<BuildRef> refs) {
        ArrayList<BuildState> states = new ArrayList<>();
        for (BuildRef ref : refs) {
            Run<?, ?> r = run(ref);
            String state;
            if (r == null) {
                Job<?, ?> job = Jenkins.get().getItemByFullName(ref.job(), Job.class);
                state = job instanceof hudson.model.Queue.Task task && Jenkins.get().getQueue().contains(task) ? "QUEUED" : "GONE";
            } else if (r instanceof org.jenkinsci.plugins.workflow.job.WorkflowRun w && w.isBuilding() && w.getExecution() == null
                    && System.currentTimeMillis() - w.getStartTimeInMillis() > 120_000) {
                // a controller killed as the build started, before the build saved its Pipeline execution: Jenkins
                // shows it running for ever, with an empty log, and nothing can stop it
                state = "NO_EXECUTION";
            } else {
                state = r.isBuilding() || r.getResult() == null ? "RUNNING" : "ENDED";
            }
            states.add(new BuildState(ref, state));
        }
        return states;
    }

    /**
     * Why a running Pipeline is held up by Jenkins' own program or another plugin's step rather than by
     * {@code copilotAutopilot}: its program runs no such step (every one it ran ended, or it never got to one), with the
     * steps it runs and its threads as evidence; null when a {@code copilotAutopilot} step still runs, or it is no
     * Pipeline.
     */
    static String heldUpByThePipeline(BuildRef ref) throws Exception {
        if (!(run(ref) instanceof WorkflowRun w) || !w.isBuilding()
                || !(w.getExecution() instanceof org.jenkinsci.plugins.workflow.cps.CpsFlowExecution e)) {
            return null;
        }
        // its sessions' records (a program that lost its place may have lost the steps' nodes too)
        CopilotAutopilotRunAction action = w.getAction(CopilotAutopilotRunAction.class);
        boolean ranTheStep = action != null && !action.getSessions().isEmpty() || new DepthFirstScanner().allNodes(e).stream()
                .anyMatch(n -> n instanceof StepAtomNode a && a.getDescriptor() instanceof CopilotAutopilotStep.DescriptorImpl);
        List<String> running = new ArrayList<>();
        for (org.jenkinsci.plugins.workflow.steps.StepExecution x : e.getCurrentExecutions(false).get(10, java.util.concurrent.TimeUnit.SECONDS)) {
            running.add(x.getClass().getSimpleName());
        }
        if (running.stream().anyMatch(n -> n.startsWith("CopilotAutopilot"))) {
            return null;
        }
        String threads = e.getThreadDump().toString().replace('\n', ' ').replaceAll("\\s+", " ");
        return (ranTheStep ? "its copilotAutopilot steps all ended" : "it never got to its copilotAutopilot step")
                + "; the program runs " + running + "; its threads: "
                + (threads.length() > 600 ? threads.substring(0, 600) + "…" : threads);
    }

    private static Run<?, ?> run(BuildRef ref) {
        Job<?, ?> p = Jenkins.get().getItemByFullName(ref.job(), Job.class);
        return p == null ? null : p.getBuildByNumber(ref.number());
    }

    /** What an ended build shows. */
    static BuildFacts facts(BuildRef ref) throws IOException {
        Run<?, ?> r = run(ref);
        List<String> console = r.getLog(Integer.MAX_VALUE);
        List<String> agents = new ArrayList<>();
        for (String line : console) {
            int on = line.indexOf("Running on ");
            int remotely = line.indexOf("Building remotely on ");
            String rest = on >= 0 ? line.substring(on + "Running on ".length()) : remotely >= 0 ? line.substring(remotely + "Building remotely on ".length()) : null;
            if (rest == null) {
                // the agent a node step was given, whose connection went as the step got to it: the build never ran there
                int offline = line.indexOf(" was marked offline");
                rest = offline > 0 && !line.substring(0, offline).contains(" ") ? line.substring(0, offline) : null;
            }
            if (rest != null) {
                String name = rest.split(" ")[0];
                if (!agents.contains(name)) {
                    agents.add(name);
                }
            }
        }
        Map<String, List<String>> logs = new LinkedHashMap<>();
        if (r instanceof WorkflowRun w) {
            FlowExecution execution = w.getExecution();
            if (execution != null) {
                for (FlowNode node : new DepthFirstScanner().allNodes(execution)) {
                    if (node instanceof StepAtomNode atom && atom.getDescriptor() != null
                            && "copilotAutopilot".equals(atom.getDescriptor().getFunctionName())) {
                        logs.put("node-" + node.getId(), stepLog(node));
                    }
                }
            }
        } else if (r instanceof FreeStyleBuild) {
            logs.put("freestyle", console);
        }
        CopilotAutopilotRunAction action = r.getAction(CopilotAutopilotRunAction.class);
        List<SessionRecord> records = action == null ? List.of() : action.getSessions();
        List<SessionFacts> sessions = new ArrayList<>();
        List<SessionFacts> recordsWithoutLines = new ArrayList<>();
        for (Map.Entry<String, List<String>> log : logs.entrySet()) {
            SessionRecord record = records.stream().filter(s -> s.getInvocationId().equals(log.getKey())).findFirst()
                    .orElse("freestyle".equals(log.getKey()) && records.size() == 1 ? records.get(0) : null);
            sessions.add(facts(log.getKey(), log.getValue(), record));
        }
        for (SessionRecord record : records) {
            if (!logs.containsKey(record.getInvocationId()) && !logs.containsKey("freestyle")) {
                recordsWithoutLines.add(facts(record.getInvocationId(), List.of(), record));
            }
        }
        return new BuildFacts(ref, String.valueOf(r.getResult()), r.getStartTimeInMillis(), r.getDuration(), console, agents,
                sessions, recordsWithoutLines);
    }

    private static SessionFacts facts(String invocationId, List<String> lines, SessionRecord record) {
        if (record == null) {
            return new SessionFacts(invocationId, lines, null, -1, -1, -1, -1, null);
        }
        ModelUsageRecord usage = record.getUsage();
        long tokens = usage == null ? 0 : nz(usage.getInputTokens()) + nz(usage.getOutputTokens());
        double credits = usage == null || usage.getAiCredits() == null ? 0 : usage.getAiCredits();
        return new SessionFacts(invocationId, lines, record.getEnding().getOutcome(), record.getActivity().getTurns(),
                record.getActivity().getToolCalls(), tokens, credits, record.getEnding().getSummary());
    }

    private static long nz(Long value) {
        return value == null ? 0 : value;
    }

    private static List<String> stepLog(FlowNode node) {
        LogAction log = node.getAction(LogAction.class);
        if (log == null) {
            return List.of();
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            log.getLogText().writeLogTo(0, bytes);
        } catch (IOException e) {
            return List.of("(could not read the step's log: " + e + ")");
        }
        return Arrays.asList(ConsoleNote.removeNotes(bytes.toString(StandardCharsets.UTF_8)).split("\n"));
    }

    /** The calls that wait for a person in the running builds of {@code jobs}. */
    static ArrayList<Waiting> waiting(List<BuildRef> running) {
        ArrayList<Waiting> waiting = new ArrayList<>();
        for (BuildRef ref : running) {
            Run<?, ?> r = run(ref);
            CopilotAutopilotRunAction action = r == null ? null : r.getAction(CopilotAutopilotRunAction.class);
            if (action == null) {
                continue;
            }
            for (LiveSessions.LiveSession s : action.getLiveSessions()) {
                for (PendingApproval call : s.getPendingApprovals()) {
                    waiting.add(new Waiting(ref, s.getInvocationId(), call.id()));
                }
            }
        }
        return waiting;
    }

    /** Approves or denies a waiting call as the user "soak"; false when it no longer waits. */
    static boolean decide(Waiting call, boolean approve) {
        Run<?, ?> r = run(call.ref());
        CopilotAutopilotRunAction action = r == null ? null : r.getAction(CopilotAutopilotRunAction.class);
        if (action == null) {
            return false;
        }
        for (LiveSessions.LiveSession s : action.getLiveSessions()) {
            if (s.getInvocationId().equals(call.invocationId()) && s.approvals() != null) {
                return s.approvals().decide(call.callId(), approve, "soak", System.currentTimeMillis());
            }
        }
        return false;
    }

    /** Aborts a running build as a user's click on its stop button does; false when it had ended. */
    static boolean abort(BuildRef ref) {
        Run<?, ?> r = run(ref);
        if (r == null || !r.isBuilding()) {
            return false;
        }
        if (r instanceof WorkflowRun w) {
            w.doStop();
        } else {
            Executor e = r.getExecutor();
            if (e == null) {
                return false;
            }
            e.interrupt(Result.ABORTED);
        }
        return true;
    }

    /** Kills a build that does not end after an abort, as the harness does with a hung one. */
    static void kill(BuildRef ref) {
        Run<?, ?> r = run(ref);
        if (r instanceof WorkflowRun w && w.isBuilding()) {
            w.doKill();
        }
    }

    /** The heap in use after the last collection, in bytes, and the heap's limit. */
    static long[] heap() {
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return new long[] {heap.getUsed(), heap.getMax()};
    }
}
