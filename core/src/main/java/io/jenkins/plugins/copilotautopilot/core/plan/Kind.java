package io.jenkins.plugins.copilotautopilot.core.plan;

import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What a setting's value is: how a value as it comes (a step's field, a form's text, a runner's option) is read, and
 * what makes it wrong. Each kind names its problems with the setting's name as the caller's user knows it.
 *
 * @param <T> the value in the plan; {@link Serializable}, since a plan is kept for a restarted controller
 */
public abstract class Kind<T extends Serializable> {
    /** How a form or a page presents the setting. */
    public enum Control {
        TEXT, TEXTAREA, LIST, NUMBER, FLAG, CHOICE, CREDENTIALS, INSTALLATION
    }

    private final Control control;
    private final Class<?> type;
    private final Long min;
    private final Long max;

    Kind(Control control, Class<?> type) {
        this(control, type, null, null);
    }

    Kind(Control control, Class<?> type, Long min, Long max) {
        this.control = control;
        this.type = type;
        this.min = min;
        this.max = max;
    }

    public Control control() {
        return control;
    }

    /** The class of its values in a plan. */
    public Class<?> type() {
        return type;
    }

    /** The lowest whole number a {@link Control#NUMBER} takes, or null. */
    public Long min() {
        return min;
    }

    /** The highest whole number a {@link Control#NUMBER} takes, or null. */
    public Long max() {
        return max;
    }

    /** The choices of a {@link Control#CHOICE}, else none. */
    public List<String> choices() {
        return List.of();
    }

    /** The value read from {@code raw}, or null when {@code raw} sets nothing; problems are added to {@code problems}. */
    abstract T read(Setting<T> setting, Object raw, Problems problems);

    /** Whether a value as it comes sets the setting: null, blank text and an empty list do not. */
    static boolean sets(Object raw) {
        if (raw == null) {
            return false;
        }
        if (raw instanceof String s) {
            return !s.isBlank();
        }
        if (raw instanceof Collection<?> c) {
            return !c.isEmpty(); // a blank entry is a problem of the list's, not nothing
        }
        return true;
    }

    // ---- the kinds ----

    /** One line of text (stripped); no control characters. */
    public static Kind<String> text() {
        return new Kind<>(Control.TEXT, String.class) {
            @Override
            String read(Setting<String> setting, Object raw, Problems problems) {
                String value = String.valueOf(raw).strip();
                if (value.chars().anyMatch(c -> c < 0x20)) {
                    problems.add(setting, " contains a control character.");
                }
                return value;
            }
        };
    }

    /** A name that must match {@code pattern}, else {@code wrong} (the setting's name first) is the problem. */
    public static Kind<String> name(Pattern pattern, String wrong) {
        return new Kind<>(Control.TEXT, String.class) {
            @Override
            String read(Setting<String> setting, Object raw, Problems problems) {
                String value = String.valueOf(raw).strip();
                if (!pattern.matcher(value).matches()) {
                    problems.add(setting, wrong.replace("{value}", value));
                }
                return value;
            }
        };
    }

    /** An http:// or https:// URL. */
    public static Kind<String> httpUrl() {
        return new Kind<>(Control.TEXT, String.class) {
            @Override
            String read(Setting<String> setting, Object raw, Problems problems) {
                String value = String.valueOf(raw).strip();
                if (!isHttpUrl(value)) {
                    problems.add(setting, " must be an http:// or https:// URL, was '" + value + "'.");
                }
                return value;
            }
        };
    }

    /** Text of several lines, kept as written (a shell command, a configuration); no NUL. */
    public static Kind<String> script(String what) {
        return new Kind<>(Control.TEXTAREA, String.class) {
            @Override
            String read(Setting<String> setting, Object raw, Problems problems) {
                String value = String.valueOf(raw);
                if (value.indexOf('\0') >= 0) {
                    problems.add(setting, " must be " + what + "; was empty or held a NUL character.");
                }
                return value;
            }
        };
    }

    /** Like {@link #script}, stripped (a configuration). */
    public static Kind<String> document() {
        return new Kind<>(Control.TEXTAREA, String.class) {
            @Override
            String read(Setting<String> setting, Object raw, Problems problems) {
                return String.valueOf(raw).strip();
            }
        };
    }

    /** Yes or no: a Boolean, or the text {@code true}/{@code false}. */
    public static Kind<Boolean> flag() {
        return new Kind<>(Control.FLAG, Boolean.class) {
            @Override
            Boolean read(Setting<Boolean> setting, Object raw, Problems problems) {
                if (raw instanceof Boolean b) {
                    return b;
                }
                String value = String.valueOf(raw).strip().toLowerCase(Locale.ROOT);
                if (!value.equals("true") && !value.equals("false")) {
                    problems.add(setting, " must be true or false; was '" + raw + "'.");
                    return null;
                }
                return Boolean.valueOf(value);
            }
        };
    }

    /** A whole number from {@code min} to {@code max}; {@code wrong} follows the setting's name ({value}, {min}, {max}). */
    public static Kind<Integer> count(int min, int max, String wrong) {
        return new Kind<>(Control.NUMBER, Integer.class, (long) min, max == Integer.MAX_VALUE ? null : (long) max) {
            @Override
            Integer read(Setting<Integer> setting, Object raw, Problems problems) {
                Long value = whole(setting, raw, problems);
                if (value == null) {
                    return null;
                }
                if (value < min || value > max) {
                    problems.add(setting, wrong.replace("{value}", String.valueOf(value)).replace("{min}", String.valueOf(min))
                            .replace("{max}", String.valueOf(max)));
                    return null;
                }
                return value.intValue();
            }
        };
    }

    /** A whole number of tokens, more than 0. */
    public static Kind<Long> tokens() {
        return new Kind<>(Control.NUMBER, Long.class, 1L, null) {
            @Override
            Long read(Setting<Long> setting, Object raw, Problems problems) {
                Long value = whole(setting, raw, problems);
                if (value != null && value <= 0) {
                    problems.add(setting, " must be more than 0, was " + value + ".");
                    return null;
                }
                return value;
            }
        };
    }

    /** An amount more than 0 (premium requests may be fractions). */
    public static Kind<Double> amount() {
        return new Kind<>(Control.TEXT, Double.class) {
            @Override
            Double read(Setting<Double> setting, Object raw, Problems problems) {
                double value;
                try {
                    value = raw instanceof Number n ? n.doubleValue() : Double.parseDouble(String.valueOf(raw).strip());
                } catch (NumberFormatException e) {
                    problems.add(setting, " must be a number; was '" + raw + "'.");
                    return null;
                }
                if (!(value > 0) || Double.isInfinite(value)) {
                    problems.add(setting, " must be more than 0, was " + value + ".");
                    return null;
                }
                return value;
            }
        };
    }

    /**
     * A limit in time: a number of minutes (0: no limit), or a {@link Duration} (the runner's {@code 30m}; zero: no
     * limit). The plan holds the duration, {@link Duration#ZERO} for no limit.
     */
    public static Kind<Duration> minutes() {
        return new Kind<>(Control.NUMBER, Duration.class, 0L, null) {
            @Override
            Duration read(Setting<Duration> setting, Object raw, Problems problems) {
                if (raw instanceof Duration d) {
                    if (d.isNegative()) {
                        problems.add(setting, " must be positive, was " + d.toSeconds() + " seconds.");
                        return null;
                    }
                    return d;
                }
                Long value = whole(setting, raw, problems);
                if (value == null) {
                    return null;
                }
                if (value < 0) {
                    problems.add(setting, " must be 0 (no limit) or a number of minutes; was " + value + ".");
                    return null;
                }
                return Duration.ofMinutes(value);
            }
        };
    }

    /** One of {@code choices} (any case), kept in the case they are listed in; {@code wrong} follows the name ({value}). */
    public static Kind<String> choice(List<String> choices, String wrong) {
        return new Kind<>(Control.CHOICE, String.class) {
            @Override
            String read(Setting<String> setting, Object raw, Problems problems) {
                String value = String.valueOf(raw).strip();
                for (String choice : choices) {
                    if (choice.equalsIgnoreCase(value)) {
                        return choice;
                    }
                }
                problems.add(setting, wrong.replace("{value}", value));
                return null;
            }

            @Override
            public List<String> choices() {
                return choices;
            }
        };
    }

    /** The id of a credential (a Secret text): its value is looked up by the build, never kept in the plan. */
    public static Kind<String> credentials() {
        return new Kind<>(Control.CREDENTIALS, String.class) {
            @Override
            String read(Setting<String> setting, Object raw, Problems problems) {
                return String.valueOf(raw).strip();
            }
        };
    }

    /** The name of a tool installation of the CLI. */
    public static Kind<String> installation() {
        return new Kind<>(Control.INSTALLATION, String.class) {
            @Override
            String read(Setting<String> setting, Object raw, Problems problems) {
                return String.valueOf(raw).strip();
            }
        };
    }

    /**
     * A list of one-line entries, each checked by {@code entry} (null: any line). A blank entry is a problem: whoever
     * collects a list from a form leaves blank lines out first.
     */
    public static Kind<ArrayList<String>> list(EntryCheck entry) {
        return new Kind<>(Control.LIST, ArrayList.class) {
            @Override
            ArrayList<String> read(Setting<ArrayList<String>> setting, Object raw, Problems problems) {
                List<?> given = raw instanceof Collection<?> c ? new ArrayList<>(c) : List.of(String.valueOf(raw).split("\\R"));
                ArrayList<String> entries = new ArrayList<>();
                for (int i = 0; i < given.size(); i++) {
                    Object item = given.get(i);
                    if (item == null || String.valueOf(item).isBlank()) {
                        problems.add(setting, ": entry " + (i + 1) + " is empty.");
                        continue;
                    }
                    String value = String.valueOf(item).strip();
                    if (value.chars().anyMatch(ch -> ch < 0x20)) {
                        problems.add(setting, ": entry " + (i + 1) + " contains a line break or control character.");
                    } else if (entry != null) {
                        String wrong = entry.problem(value);
                        if (wrong != null) {
                            problems.add(setting, wrong);
                        }
                    }
                    entries.add(value);
                }
                return entries;
            }
        };
    }

    /** What is wrong with one entry of a list (the setting's name goes first), or null. */
    @FunctionalInterface
    public interface EntryCheck {
        String problem(String entry);
    }

    private static Long whole(Setting<?> setting, Object raw, Problems problems) {
        if (raw instanceof Integer || raw instanceof Long || raw instanceof Short) {
            return ((Number) raw).longValue();
        }
        try {
            return Long.parseLong(String.valueOf(raw).strip());
        } catch (NumberFormatException e) {
            problems.add(setting, " must be a whole number; was '" + raw + "'.");
            return null;
        }
    }

    static boolean isHttpUrl(String url) {
        try {
            java.net.URI uri = new java.net.URI(url.strip());
            String scheme = uri.getScheme();
            return scheme != null && (scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
                    && uri.getHost() != null && !uri.getHost().isBlank();
        } catch (java.net.URISyntaxException e) {
            return false;
        }
    }
}
