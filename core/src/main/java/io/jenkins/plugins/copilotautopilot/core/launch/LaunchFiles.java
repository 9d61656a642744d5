package io.jenkins.plugins.copilotautopilot.core.launch;

import io.jenkins.plugins.copilotautopilot.core.approval.ApprovalRules;
import io.jenkins.plugins.copilotautopilot.core.changes.WorkTreeChanges;
import io.jenkins.plugins.copilotautopilot.core.command.CliCommand;
import io.jenkins.plugins.copilotautopilot.core.files.OwnerOnlyFiles;
import io.jenkins.plugins.copilotautopilot.core.output.AnswerRequest;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionPlan;
import io.jenkins.plugins.copilotautopilot.core.plan.SessionSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What goes into a {@link ControlFolder} before the launch script runs: the task, the arguments, the working
 * directory and the variables, each a file. Names are relative to the control folder; the variables are in
 * {@link ControlFolder#ENVIRONMENT}, which must be readable by its owner only (they hold secrets).
 */
public final class LaunchFiles {
    private LaunchFiles() {
    }

    /** File name → content for {@code command}; {@link ControlFolder#SCRIPT} included. */
    public static Map<String, byte[]> of(CliCommand command) {
        return of(command, false);
    }

    /**
     * Like {@link #of(CliCommand)}; the watchdog stops the CLI at the wall-clock limit plus
     * {@link LaunchScript#WATCHDOG_GRACE_SECONDS}, even if nobody follows it any more.
     *
     * @param describeCli whether the launch script is to say which CLI it found ({@link ControlFolder#CLI_EVENT}),
     *                    because the caller could not look (a container's file system)
     */
    public static Map<String, byte[]> of(CliCommand command, boolean describeCli) {
        SessionPlan plan = command.plan();
        java.time.Duration timeout = plan.limit(SessionSettings.TIMEOUT);
        long watchdogSeconds = timeout == null ? 0 : timeout.toSeconds() + LaunchScript.WATCHDOG_GRACE_SECONDS;
        Map<String, byte[]> files = new LinkedHashMap<>();
        String schema = AnswerRequest.schema(plan);
        files.put(ControlFolder.PROMPT, utf8(schema == null ? command.task().prompt() : command.task().prompt() + AnswerRequest.request(schema)));
        StringBuilder arguments = new StringBuilder(command.executable().path()).append('\n');
        command.arguments().forEach(a -> arguments.append(a).append('\n'));
        files.put(ControlFolder.ARGUMENTS, utf8(arguments.toString()));
        files.put(ControlFolder.WORKING_DIRECTORY, utf8(command.workingDirectory() + "\n"));
        command.environment().forEach((name, value) -> files.put(environmentFile(name), utf8(value)));
        if (command.task().keptState() != null) {
            files.put(ControlFolder.KEPT_SESSION, command.task().keptState());
        }
        if (command.task().mcpServers() != null) {
            files.put(ControlFolder.MCP_CONFIG, utf8(command.task().mcpServers().json()));
        }
        String verify = plan.get(SessionSettings.VERIFY);
        if (verify != null) {
            files.put(ControlFolder.VERIFY, utf8(verify));
        }
        ApprovalRules approvals = ApprovalRules.approving(plan);
        if (!approvals.isEmpty()) {
            files.put(ControlFolder.APPROVAL_HOOK, utf8(LaunchScript.approvalHook()));
            files.put(ControlFolder.APPROVAL_RULES, utf8(rulesFile(approvals)));
            files.put(ControlFolder.APPROVAL_HOOK_CONFIG, utf8(hookConfig(approvals, approvalWaitSeconds(plan))));
        }
        files.put(ControlFolder.LAUNCH_SETTINGS, utf8(settings(command, watchdogSeconds, describeCli)));
        files.put(ControlFolder.SCRIPT, utf8(LaunchScript.render(command.launchFolder())));
        return files;
    }

    /** The launch script's settings ({@link ControlFolder#LAUNCH_SETTINGS}): numbers and flags, never user text. */
    private static String settings(CliCommand command, long watchdogSeconds, boolean describeCli) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("watchdog", watchdogSeconds);
        settings.put("describe", describeCli ? "1" : "");
        SessionPlan plan = command.plan();
        settings.put("changes", plan.get(SessionSettings.RECORD_CHANGES) ? "1" : "0");
        settings.put("keep", plan.get(SessionSettings.SESSION) != null ? "1" : "");
        settings.put("sandbox", plan.get(SessionSettings.SANDBOX) ? "1" : "");
        settings.put("answers", AnswerRequest.schema(plan) != null ? "1" : "");
        settings.put("retries", plan.get(SessionSettings.SERVICE_RETRIES));
        boolean approvals = !plan.list(SessionSettings.APPROVE_TOOLS).isEmpty();
        settings.put("approvals", approvals ? "1" : "");
        settings.put("approval_wait", approvalWaitSeconds(plan));
        // the repository's hooks stay off (a repository's settings can switch off every hook, the approval hook's too)
        settings.put("own_hooks", approvals || plan.get(SessionSettings.UNTRUSTED) ? "1" : "");
        settings.put("otel", plan.get(SessionSettings.OTEL) ? "1" : "");
        settings.put("kill_grace", LaunchScript.KILL_GRACE_SECONDS);
        settings.put("await", LaunchScript.AWAIT_SECONDS);
        settings.put("untracked_files", LaunchScript.MAX_UNTRACKED_FILES);
        settings.put("untracked_kb", LaunchScript.MAX_UNTRACKED_KILOBYTES);
        settings.put("patch_bytes", WorkTreeChanges.MAX_PATCH_BYTES);
        settings.put("verify_lines", LaunchScript.VERIFY_LINES);
        settings.put("verify_chars", LaunchScript.VERIFY_LINE_CHARS);
        StringBuilder text = new StringBuilder();
        settings.forEach((name, value) -> text.append(name).append('=').append(value).append('\n'));
        return text.toString();
    }

    /** How long the approval hook waits on its own: the approval timeout and a grace period for the follower. */
    private static long approvalWaitSeconds(SessionPlan plan) {
        return ApprovalRules.timeout(plan).toSeconds() + LaunchScript.APPROVAL_GRACE_SECONDS;
    }

    /** The approval hook's rules: index, tool-name expression, input expression (empty: any), tab-separated. */
    static String rulesFile(ApprovalRules approvals) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < approvals.rules().size(); i++) {
            ApprovalRules.Rule rule = approvals.rules().get(i);
            text.append(i).append('\t').append(rule.toolNames()).append('\t')
                    .append(rule.arguments() == null ? "" : rule.arguments()).append('\n');
        }
        return text.toString();
    }

    /**
     * The CLI's configuration of the approval hook: {@code preToolUse} for the tools the rules name, run with
     * {@code /bin/sh} from the control folder the launch script names in the hook's environment; its timeout is longer
     * than the hook's own wait, since a hook the CLI times out counts as no decision at all.
     */
    static String hookConfig(ApprovalRules approvals, long waitSeconds) {
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.node.ObjectNode config = json.createObjectNode();
        config.put("version", 1);
        config.putObject("hooks").putArray("preToolUse").addObject()
                .put("type", "command")
                .put("bash", "/bin/sh \"$COPILOT_AUTOPILOT_CONTROL/" + ControlFolder.APPROVAL_HOOK + "\"")
                .put("matcher", approvals.hookMatcher())
                .put("timeoutSec", waitSeconds + LaunchScript.APPROVAL_GRACE_SECONDS);
        return config.toString();
    }

    /**
     * Creates the control folder and its variables' folder, readable by their owner only, and writes {@code files}
     * (from {@link #of}) into it; a name that would lead outside the folder is refused. Runs where the CLI runs: in
     * this JVM for the runner, on the agent for Jenkins.
     */
    public static void write(Path folder, Map<String, byte[]> files) throws IOException {
        Path root = folder.toAbsolutePath().normalize();
        OwnerOnlyFiles.ownFolder(root);
        OwnerOnlyFiles.ownFolder(root.resolve(ControlFolder.ENVIRONMENT));
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            Path target = root.resolve(file.getKey()).normalize();
            if (!target.startsWith(root) || target.equals(root)) {
                throw new IOException("refusing to write outside the control folder: " + file.getKey());
            }
            Files.write(target, file.getValue());
        }
    }

    /**
     * Tells the launch script waiting in {@code controlFolder} what comes after its wait {@code step}: the prompt
     * first (readable by its owner only), then the answer, each written whole (a temporary file moved in place). Once
     * the answer is there, nothing is written again.
     */
    public static void writeAnswer(Path controlFolder, int step, String answer, String prompt) throws IOException {
        Path target = controlFolder.resolve(ControlFolder.ANSWER + step);
        if (Files.exists(target)) {
            return;
        }
        if (prompt != null) {
            OwnerOnlyFiles.write(controlFolder.resolve(ControlFolder.ANSWER + step + ControlFolder.ANSWER_PROMPT_SUFFIX), utf8(prompt));
        }
        OwnerOnlyFiles.write(target, utf8(answer + "\n"));
    }

    /** Hands the approval hook the follower's decision on request {@code id}: the hook's answer, written whole, once. */
    public static void writeDecision(Path controlFolder, String id, String hookOutput) throws IOException {
        if (!id.matches("[0-9]+-[0-9]+")) {
            throw new IOException("not an approval request: " + id);
        }
        Path target = controlFolder.resolve(ControlFolder.APPROVALS).resolve(id + ControlFolder.APPROVAL_DECISION_SUFFIX);
        if (!Files.exists(target) && Files.isDirectory(target.getParent())) {
            OwnerOnlyFiles.write(target, utf8(hookOutput + "\n"));
        }
    }

    /** The file that holds a variable, relative to the control folder. */
    public static String environmentFile(String variable) {
        return ControlFolder.ENVIRONMENT + "/" + variable;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
