package io.jenkins.plugins.copilotautopilot.core.plan;

import io.jenkins.plugins.copilotautopilot.core.plan.Setting.Merge;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What one session runs with: the step's settings merged with the administrator's defaults ({@link #resolve}), read
 * and checked, then completed once by the session's preparation ({@link PlanDraft}), and immutable from then on: nothing
 * outside this package can change a plan. It holds no secret and nothing large (the task's text, a
 * token, a key, resolved MCP values, a kept state travel beside it, in {@code SessionTask}), so it is what is written
 * into the journal, kept for a restarted controller, and read by everything a session does: the command line, the
 * launch files, the follower's limits, the pages and the checks.
 */
public final class SessionPlan implements Serializable {
    private static final long serialVersionUID = 1L;
    /** The name {@link #fromDefaults()} gives a block taken whole from the defaults. */
    private static final Map<String, String> BLOCK_NAMES = Map.of("provider", "provider");

    /** Values by setting name; a setting neither sets is not here (its fallback applies). */
    private final LinkedHashMap<String, Serializable> values;
    private final LinkedHashSet<String> fromDefaults;

    private SessionPlan(Map<String, Serializable> values, Set<String> fromDefaults) {
        this.values = new LinkedHashMap<>(values);
        this.fromDefaults = new LinkedHashSet<>(fromDefaults);
    }

    /** A plan of the given values alone, no defaults (the runner, tests); problems are thrown. */
    public static SessionPlan of(SettingValues given) {
        return resolve(given, SettingValues.none()).orThrow();
    }

    /** A plan with nothing set: every setting at its fallback. */
    public static SessionPlan defaults() {
        return new SessionPlan(Map.of(), Set.of());
    }

    /** A plan, or what is wrong with the settings. */
    public record Resolution(SessionPlan plan, Problems problems) {
        /** The plan, or an {@link InvalidSettingsException} listing every problem with the step's parameter names. */
        public SessionPlan orThrow() {
            if (!problems.isEmpty()) {
                throw new InvalidSettingsException(problems.messages());
            }
            return plan;
        }
    }

    /**
     * Merges a step's settings with the administrator's defaults and reads them: see {@link Merge} for how each meets
     * its default. Every problem is collected, none stops the others from being found.
     */
    public static Resolution resolve(SettingValues step, SettingValues defaults) {
        Problems problems = new Problems();
        Map<String, Serializable> values = new LinkedHashMap<>();
        Set<String> taken = new LinkedHashSet<>();
        Set<String> blocksFromDefaults = new HashSet<>();
        for (Setting<?> setting : SessionSettings.all()) {
            merge(setting, step, defaults, values, taken, blocksFromDefaults, problems);
        }
        // a step that asks for the changes as a file records them, whatever the default says
        if (step.sets(SessionSettings.CHANGES_FILE) && !step.sets(SessionSettings.RECORD_CHANGES)) {
            values.put(SessionSettings.RECORD_CHANGES.name(), Boolean.TRUE);
            taken.remove(SessionSettings.RECORD_CHANGES.name());
        }
        SessionPlan plan = new SessionPlan(values, taken);
        checkTogether(plan, problems);
        return new Resolution(plan, problems);
    }

    private static <T extends Serializable> void merge(Setting<T> setting, SettingValues step, SettingValues defaults,
                                                       Map<String, Serializable> values, Set<String> taken,
                                                       Set<String> blocksFromDefaults, Problems problems) {
        T own = step.sets(setting) ? setting.kind().read(setting, step.raw(setting), problems) : null;
        boolean defaultApplies = setting.hasDefault()
                && (setting.unlessStepSets() == null || !step.sets(setting.unlessStepSets()));
        T fallback = defaultApplies && defaults.sets(setting) ? setting.kind().read(setting, defaults.raw(setting), problems) : null;
        T value = switch (setting.merge()) {
            case STEP_ONLY -> own;
            case STEP_FIRST -> pick(setting, own, fallback, taken);
            case LOWER -> lower(setting, own, fallback, taken);
            case UNION -> union(setting, own, fallback, taken);
            case NARROWS -> narrows(setting, own, fallback, taken, problems);
            case DEFAULT_YES_HOLDS -> Boolean.TRUE.equals(fallback) ? taken(setting, fallback, !Boolean.TRUE.equals(own), taken)
                    : pick(setting, own, fallback, taken);
            case DEFAULT_NO_HOLDS -> {
                if (Boolean.TRUE.equals(own) && Boolean.FALSE.equals(fallback)) {
                    problems.add(setting, " is turned off by the administrator (Manage Jenkins » System): leave it out of the step.");
                    yield fallback;
                }
                yield pick(setting, own, fallback, taken);
            }
            case BLOCK, BLOCK_OR_YES -> block(setting, own, fallback, step, defaults, taken, blocksFromDefaults);
        };
        if (value != null) {
            values.put(setting.name(), value);
        }
    }

    private static <T extends Serializable> T pick(Setting<T> setting, T own, T fallback, Set<String> taken) {
        return own != null ? own : taken(setting, fallback, fallback != null, taken);
    }

    private static <T extends Serializable> T taken(Setting<T> setting, T value, boolean fromDefaults, Set<String> taken) {
        if (fromDefaults) {
            taken.add(setting.name());
        }
        return value;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static <T extends Serializable> T lower(Setting<T> setting, T own, T fallback, Set<String> taken) {
        if (fallback != null && (own == null || ((Comparable) fallback).compareTo(own) < 0)) {
            return taken(setting, fallback, true, taken);
        }
        return own;
    }

    @SuppressWarnings("unchecked")
    private static <T extends Serializable> T union(Setting<T> setting, T own, T fallback, Set<String> taken) {
        LinkedHashSet<String> all = new LinkedHashSet<>(own == null ? List.of() : (List<String>) own);
        if (fallback != null && all.addAll((List<String>) fallback)) {
            taken.add(setting.name());
        }
        return all.isEmpty() ? null : (T) new ArrayList<>(all);
    }

    @SuppressWarnings("unchecked")
    private static <T extends Serializable> T narrows(Setting<T> setting, T own, T fallback, Set<String> taken, Problems problems) {
        if (own == null) {
            return taken(setting, fallback, fallback != null, taken);
        }
        if (fallback != null) {
            Set<String> ceiling = new HashSet<>();
            ((List<String>) fallback).forEach(u -> ceiling.add(u.toLowerCase(Locale.ROOT)));
            List<String> outside = ((List<String>) own).stream().filter(u -> !ceiling.contains(u.toLowerCase(Locale.ROOT))).toList();
            if (!outside.isEmpty()) {
                problems.add(setting, " may only narrow the administrator's allow list (Manage Jenkins » System), which does not"
                        + " hold " + String.join(" ", outside) + ".");
            }
        }
        return own;
    }

    /** A block follows its first setting: the step's when the step sets that one (or the defaults do not), else the defaults'. */
    private static <T extends Serializable> T block(Setting<T> setting, T own, T fallback, SettingValues step, SettingValues defaults,
                                                    Set<String> taken, Set<String> blocksFromDefaults) {
        Setting<?> leader = blockLeader(setting.block());
        boolean fromStep = step.sets(leader) || !defaults.sets(leader);
        if (fromStep) {
            return own;
        }
        if (blocksFromDefaults.add(setting.block())) {
            taken.add(BLOCK_NAMES.getOrDefault(setting.block(), setting.block()));
        }
        if (setting.merge() == Merge.BLOCK_OR_YES && Boolean.TRUE.equals(own)) {
            return own; // stricter than the administrator's block
        }
        return fallback;
    }

    private static Setting<?> blockLeader(String block) {
        for (Setting<?> s : SessionSettings.all()) {
            if (block.equals(s.block())) {
                return s;
            }
        }
        throw new IllegalStateException("no setting leads the block " + block);
    }

    /** What is wrong with settings together. */
    private static void checkTogether(SessionPlan plan, Problems problems) {
        boolean answers = plan.get(SessionSettings.OUTPUT_SCHEMA) != null || Boolean.TRUE.equals(plan.get(SessionSettings.REVIEW_FINDINGS));
        for (Setting<String> file : List.of(SessionSettings.OUTPUT_FILE, SessionSettings.ISSUES_FILE)) {
            if (!answers && plan.get(file) != null) {
                problems.add(file, names -> names.apply(file) + " needs an answer to write: set " + names.apply(SessionSettings.OUTPUT_SCHEMA)
                        + " or " + names.apply(SessionSettings.REVIEW_FINDINGS) + ".");
            }
        }
        if (plan.get(SessionSettings.CHANGES_FILE) != null && !plan.get(SessionSettings.RECORD_CHANGES)) {
            problems.fixed(SessionSettings.CHANGES_FILE,
                    "changesFile needs the changes recorded: leave recordChanges on, or leave changesFile out.");
        }
        if (plan.get(SessionSettings.PROVIDER_BASE_URL) == null && plan.get(SessionSettings.OFFLINE)) {
            problems.add(SessionSettings.OFFLINE, names -> names.apply(SessionSettings.OFFLINE) + " needs your own model provider: set "
                    + names.apply(SessionSettings.PROVIDER_BASE_URL) + " and " + names.apply(SessionSettings.MODEL) + ".");
        }
        if (plan.get(SessionSettings.PROVIDER_BASE_URL) != null && plan.get(SessionSettings.MODEL) == null) {
            problems.add(SessionSettings.MODEL, names -> "An own model provider (" + names.apply(SessionSettings.PROVIDER_BASE_URL)
                    + ") needs a model: set " + names.apply(SessionSettings.MODEL) + " to the provider's model name.");
        }
    }

    /** The setting's value in this session: what the step or the defaults gave, else its fallback (null: none). */
    @SuppressWarnings("unchecked")
    public <T extends Serializable> T get(Setting<T> setting) {
        Serializable value = values.get(setting.name());
        return value != null ? (T) value : setting.fallback();
    }

    /** A list setting's value, never null. */
    public List<String> list(Setting<ArrayList<String>> setting) {
        ArrayList<String> value = get(setting);
        return value == null ? List.of() : Collections.unmodifiableList(value);
    }

    /** A limit in time, or null for none (0 minutes, or unset without a fallback). */
    public Duration limit(Setting<Duration> setting) {
        Duration value = get(setting);
        return value == null || value.isZero() ? null : value;
    }

    /** Whether the step or the defaults set it (its fallback is not a setting). */
    public boolean isSet(Setting<?> setting) {
        return values.containsKey(setting.name());
    }

    /** The build result for a BLOCKED outcome: as chosen, else that of an INCOMPLETE one. */
    public String resultWhenBlocked() {
        String blocked = get(SessionSettings.RESULT_WHEN_BLOCKED);
        return blocked != null ? blocked : get(SessionSettings.RESULT_WHEN_INCOMPLETE);
    }

    /** The check's name to publish the session as, or null when publishing is skipped. */
    public String checksNameToPublish() {
        return get(SessionSettings.SKIP_PUBLISHING_CHECKS) ? null : get(SessionSettings.CHECKS_NAME);
    }

    /** Which settings came from the defaults, in form order, for one line in the log ({@code provider} for the whole block). */
    public Set<String> fromDefaults() {
        return Collections.unmodifiableSet(fromDefaults);
    }

    /** The values set, by name (what the journal and the session page show: no secret is among them). */
    public Map<String, Serializable> values() {
        return Collections.unmodifiableMap(values);
    }

    /** This plan with {@code setting} set to {@code value} (null: unset); for {@link PlanDraft} alone. */
    <T extends Serializable> SessionPlan with(Setting<T> setting, T value) {
        Map<String, Serializable> copy = new LinkedHashMap<>(values);
        if (value == null) {
            copy.remove(setting.name());
        } else {
            copy.put(setting.name(), value);
        }
        return new SessionPlan(copy, fromDefaults);
    }

    @Override
    public String toString() {
        return "SessionPlan" + values;
    }
}
