package io.jenkins.plugins.copilotautopilot.core.plan;

import java.io.Serializable;
import java.util.Objects;

/**
 * One setting of a session, defined once in {@link SessionSettings}: its name (the Pipeline step's parameter, the form's
 * field, the JCasC key, the journal's), what its value is ({@link Kind}), how a step's value meets the administrator's
 * default ({@link Merge}), what it is when neither sets it, its title on forms, and the runner's option for it. Read a
 * session's value with {@link SessionPlan#get(Setting)}.
 *
 * @param <T> its value in a {@link SessionPlan}
 */
public final class Setting<T extends Serializable> {
    /** How a step's value meets the administrator's default, so that a job can never weaken what an administrator set. */
    public enum Merge {
        /** The step's value, else the administrator's. */
        STEP_FIRST,
        /** The step's alone: an administrator has no default for it. */
        STEP_ONLY,
        /** The lower of the two: the administrator's is a ceiling a step may only lower (budgets). */
        LOWER,
        /** Both lists together: a step cannot drop what the administrator lists (denied tools and URLs). */
        UNION,
        /** The step's list may only narrow the administrator's (an entry outside it is a problem); unset, the administrator's. */
        NARROWS,
        /** The administrator's yes holds for every step (sandbox). */
        DEFAULT_YES_HOLDS,
        /** The administrator's explicit no forbids a step's yes, which is a problem (allowAllPaths). */
        DEFAULT_NO_HOLDS,
        /**
         * Taken together with the other settings of its {@link #block()}: all the step's when it sets the block's first
         * setting, else all the administrator's (an own model provider: a job cannot send the administrator's key to an
         * endpoint of its choosing).
         */
        BLOCK,
        /** As {@link #BLOCK}, and a step may make the administrator's block stricter by saying yes (offline). */
        BLOCK_OR_YES
    }

    private final String name;
    private final Kind<T> kind;
    private final Merge merge;
    private final T fallback;
    private final String title;
    private final String option;
    private final boolean advanced;
    private final Setting<?> unlessStepSets;
    private String block;

    Setting(String name, Kind<T> kind, Merge merge, T fallback, String title, String option, boolean advanced,
            Setting<?> unlessStepSets) {
        this.name = Objects.requireNonNull(name);
        this.kind = Objects.requireNonNull(kind);
        this.merge = Objects.requireNonNull(merge);
        this.fallback = fallback;
        this.title = title;
        this.option = option;
        this.advanced = advanced;
        this.unlessStepSets = unlessStepSets;
    }

    /** The step's parameter name, the field's, the JCasC key. */
    public String name() {
        return name;
    }

    public Kind<T> kind() {
        return kind;
    }

    public Merge merge() {
        return merge;
    }

    /** The value when neither the step nor the administrator sets it (null: none). */
    public T fallback() {
        return fallback;
    }

    /** Its title on forms. */
    public String title() {
        return title;
    }

    /** The runner's option for it ({@code --model}), or null when the runner takes it otherwise or not at all. */
    public String option() {
        return option;
    }

    /** Whether forms show it under "Advanced". */
    public boolean advanced() {
        return advanced;
    }

    /** Whether an administrator may give it a default (on the global configuration). */
    public boolean hasDefault() {
        return merge != Merge.STEP_ONLY;
    }

    /** A setting whose value, set by the step, makes the administrator's default for this one not apply; or null. */
    public Setting<?> unlessStepSets() {
        return unlessStepSets;
    }

    /** The name of the block it belongs to ({@link Merge#BLOCK}), or null. */
    public String block() {
        return block;
    }

    /** What is wrong with {@code raw} as this setting's value on its own (a form's check); empty when nothing is. */
    public java.util.List<String> problems(Object raw) {
        if (!Kind.sets(raw)) {
            return java.util.List.of();
        }
        Problems problems = new Problems();
        kind.read(this, raw, problems);
        return problems.messages();
    }

    Setting<T> inBlock(String blockName) {
        this.block = blockName;
        return this;
    }

    @Override
    public String toString() {
        return name;
    }

    /** A fluent definition of a setting, for {@link SessionSettings}. */
    static final class Definition<T extends Serializable> {
        private final String name;
        private final Kind<T> kind;
        private Merge merge = Merge.STEP_FIRST;
        private T fallback;
        private String title;
        private String option;
        private boolean advanced;
        private Setting<?> unlessStepSets;

        Definition(String name, Kind<T> kind) {
            this.name = name;
            this.kind = kind;
        }

        Definition<T> merge(Merge value) {
            this.merge = value;
            return this;
        }

        Definition<T> fallback(T value) {
            this.fallback = value;
            return this;
        }

        Definition<T> title(String value) {
            this.title = value;
            return this;
        }

        Definition<T> option(String value) {
            this.option = value;
            return this;
        }

        Definition<T> advanced() {
            this.advanced = true;
            return this;
        }

        Definition<T> unlessStepSets(Setting<?> other) {
            this.unlessStepSets = other;
            return this;
        }

        Setting<T> define() {
            return new Setting<>(name, kind, merge, fallback, title == null ? name : title, option, advanced, unlessStepSets);
        }
    }
}
