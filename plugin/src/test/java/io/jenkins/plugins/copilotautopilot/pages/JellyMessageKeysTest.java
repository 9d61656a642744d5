package io.jenkins.plugins.copilotautopilot.pages;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.MessageFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.commons.jelly.JellyException;
import org.junit.jupiter.api.Test;
import org.kohsuke.stapler.jelly.InternationalizedStringExpression;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Stapler reads the first {@code (} of a {@code ${%…}} message as the start of an argument list and parses what
 * follows as JEXL expressions: {@code ${%Timeout (minutes, 0 for none)}} makes the whole view fail to render, and
 * {@code ${%Secret text (recommended)}} silently shows "Secret text ". No Jenkins needed: every view is read as text.
 */
class JellyMessageKeysTest {
    private static final Path RESOURCES = Path.of("src", "main", "resources");
    private static final Pattern MESSAGE = Pattern.compile("\\$\\{%([^}]*)}");

    @Test
    void noViewHasAParenthesisInAMessageUnlessItIsARealArgumentList() throws IOException {
        List<Path> views;
        try (Stream<Path> files = Files.walk(RESOURCES)) {
            views = files.filter(p -> p.getFileName().toString().endsWith(".jelly")).sorted().toList();
        }
        assertFalse(views.isEmpty(), "views found under " + RESOURCES.toAbsolutePath());
        List<String> problems = new ArrayList<>();
        int messages = 0;
        for (Path view : views) {
            Properties properties = propertiesNextTo(view);
            Matcher m = MESSAGE.matcher(Files.readString(view, StandardCharsets.UTF_8));
            while (m.find()) {
                messages++;
                String problem = problem(m.group(1), properties);
                if (problem != null) {
                    problems.add(RESOURCES.relativize(view) + ": ${%" + m.group(1) + "}: " + problem);
                }
            }
        }
        assertFalse(messages == 0, "the views have messages");
        assertEquals(List.of(), problems);
    }

    @Test
    void theCheckTellsArgumentListsFromProse() {
        Properties properties = new Properties();
        properties.setProperty("numbers", "{0} turns, {1} tool calls");
        properties.setProperty("one", "{0} turns");

        assertNull(problem("Turns", properties));
        assertNull(problem("numbers(s.turns, s.toolCalls)", properties));
        assertNull(problem("one(report.omittedTurns())", properties));
        assertNotNull(problem("Secret text (recommended)", properties), "prose in parentheses");
        assertNotNull(problem("Timeout (minutes, 0 for none)", properties), "not JEXL, and prose");
        assertNotNull(problem("numbers(s.turns)", properties), "fewer arguments than the message has");
        assertNotNull(problem("missing(s.turns)", properties), "no message in the properties file");
        assertNotNull(problem("numbers(s.turns, 0 for none)", properties), "an argument that is not JEXL");
        assertNotNull(problem("numbers(s.turns, s.toolCalls) more", properties), "text after the list");
        assertNotNull(problem("one('{0", properties), "a literal, here cut at a brace: Stapler would never return");
        assertNotNull(problem("one(\"x\")", properties), "a literal");
    }

    /** Null when Stapler renders the message as meant; else what is wrong. */
    static String problem(String expression, Properties properties) {
        int paren = expression.indexOf('(');
        if (paren < 0) {
            return null;
        }
        String key = expression.substring(0, paren);
        if (key.isEmpty() || key.chars().anyMatch(Character::isWhitespace)) {
            return "'(' after prose starts an argument list; rephrase without parentheses, or use a key and a properties file";
        }
        String arguments = expression.substring(paren);
        if (arguments.indexOf('\'') >= 0 || arguments.indexOf('"') >= 0 || arguments.indexOf('{') >= 0) {
            // Stapler's tokenizer loops for ever on a quote it cannot close (a '{0}' here is cut at its '}')
            return "a string literal or a brace in a message's arguments; pass the value from Java instead";
        }
        InternationalizedStringExpression parsed;
        try {
            parsed = new InternationalizedStringExpression(null, "%" + expression);
        } catch (JellyException | RuntimeException e) {
            return "Stapler cannot parse the arguments: " + e.getMessage();
        }
        String message = properties.getProperty(key);
        if (message == null) {
            return "no message '" + key + "' in the properties file next to the view";
        }
        int placeholders = new MessageFormat(message).getFormatsByArgumentIndex().length;
        if (placeholders != parsed.getArguments().size()) {
            return parsed.getArguments().size() + " arguments for a message with " + placeholders + " placeholders";
        }
        return null;
    }

    private static Properties propertiesNextTo(Path view) throws IOException {
        Properties properties = new Properties();
        String name = view.getFileName().toString();
        Path file = view.resolveSibling(name.substring(0, name.length() - ".jelly".length()) + ".properties");
        if (Files.isRegularFile(file)) {
            try (Reader in = Files.newBufferedReader(file, StandardCharsets.ISO_8859_1)) {
                properties.load(in);
            }
        }
        return properties;
    }
}
