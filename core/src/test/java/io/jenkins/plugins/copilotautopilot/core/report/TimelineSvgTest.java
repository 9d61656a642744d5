package io.jenkins.plugins.copilotautopilot.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.jenkins.plugins.copilotautopilot.core.session.ToolStatus;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.NodeList;

class TimelineSvgTest {
    private static final String HOSTILE = "<script>alert(\"x\")</script> '\"><img src=x onerror=alert(1)> javascript:alert(2) \u001b[31m";

    static Document parse(String svg) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    static List<Element> groups(Document doc, String cls) {
        List<Element> out = new ArrayList<>();
        NodeList gs = doc.getElementsByTagName("g");
        for (int i = 0; i < gs.getLength(); i++) {
            Element g = (Element) gs.item(i);
            if (cls.equals(g.getAttribute("class"))) {
                out.add(g);
            }
        }
        return out;
    }

    static SessionReport report(int turns, int callsPerTurn, String text) {
        Instant t0 = Instant.parse("2026-11-30T10:00:00Z");
        List<TurnReport> list = new ArrayList<>();
        ToolStatus[] statuses = ToolStatus.values();
        for (int t = 0; t < turns; t++) {
            Instant start = t0.plusSeconds(10L * t);
            List<ToolCallReport> calls = new ArrayList<>();
            for (int c = 0; c < callsPerTurn; c++) {
                calls.add(new ToolCallReport("bash", text, statuses[(t + c) % statuses.length], start.plusSeconds(1 + c), 500,
                        c % 2 == 0 ? null : text, text));
            }
            list.add(new TurnReport(t + 1, t % 3 == 1, start, 9_000, List.of(text), calls, 0, t == turns - 1 ? List.of(text) : List.of()));
        }
        SessionReport.Totals totals = new SessionReport.Totals(turns, turns * callsPerTurn, 1, 1, turns / 3, 1.0, null, null, 0, 0, 0, 100);
        return new SessionReport(text, "m", "1.0.102", t0, t0.plusSeconds(10L * turns), "COMPLETED", text, text,
                10_000L * turns, list, 0, totals);
    }

    @Test
    void drawsEveryTurnAndToolCall() throws Exception {
        Document doc = parse(TimelineSvg.render(SessionReportReaderTest.reportOf("cli-happy")));
        assertThat(doc.getDocumentElement().getTagName()).isEqualTo("svg");
        assertThat(doc.getDocumentElement().getAttribute("width")).isEqualTo("960");
        assertThat(groups(doc, "turn")).hasSize(2);
        assertThat(groups(doc, "tool")).hasSize(2);
        assertThat(groups(doc, "tool").get(0).getElementsByTagName("title").item(0).getTextContent())
                .startsWith("bash: echo hello-from-fake-model > hello.txt && cat hello.txt\nsucceeded in");
        assertThat(doc.getElementsByTagName("title").item(0).getTextContent()).startsWith("COMPLETED in ");
    }

    @Test
    void hostileTextIsEscapedEverywhere() throws Exception {
        String svg = TimelineSvg.render(report(3, 2, HOSTILE));
        Document doc = parse(svg);
        assertThat(svg).doesNotContain("<script").doesNotContain("<img").doesNotContain("\u001b");
        assertThat(doc.getElementsByTagName("script").getLength()).isZero();
        assertThat(doc.getElementsByTagName("img").getLength()).isZero();
        NodeList all = doc.getElementsByTagName("*");
        for (int i = 0; i < all.getLength(); i++) {
            NamedNodeMap attributes = all.item(i).getAttributes();
            for (int a = 0; a < attributes.getLength(); a++) {
                String name = attributes.item(a).getNodeName().toLowerCase();
                assertThat(name).doesNotStartWith("on");
                assertThat(attributes.item(a).getNodeValue()).doesNotContain("javascript:");
            }
        }
        assertThat(doc.getElementsByTagName("desc").item(0).getTextContent()).contains("<script>alert(\"x\")</script>");
    }

    @Test
    void controlSequencesAndBidiOverridesAreRemovedWholeFromEveryText() throws Exception {
        String sneaky = "evil\u202Etxt.exe \u001b[31mred\u001b[0m \u001b]8;;http://x\u0007link\u001b]8;;\u0007 \u2066iso\u2069 \u009b1m";
        String svg = TimelineSvg.render(report(2, 2, sneaky));
        assertThat(svg).doesNotContain("\u202E").doesNotContain("\u2066").doesNotContain("\u2069").doesNotContain("\u009b")
                .doesNotContain("[31m").doesNotContain("[0m").doesNotContain("8;;").doesNotContain("http://x").doesNotContain("\u001b");
        Document doc = parse(svg);
        NodeList titles = doc.getElementsByTagName("title");
        for (int i = 1; i < titles.getLength(); i++) {
            String title = titles.item(i).getTextContent();
            if (title.contains("evil")) {
                assertThat(title).contains("evil\uFFFDtxt.exe red link \uFFFDiso\uFFFD");
            }
        }
        assertThat(doc.getElementsByTagName("desc").item(0).getTextContent()).contains("evil\uFFFDtxt.exe red link");
        assertThat(TimelineSvg.escape("a\u001b[1;31mb")).isEqualTo("ab");
    }

    @Test
    void twoHundredTurnsStayReadable() throws Exception {
        Document doc = parse(TimelineSvg.render(report(200, 3, "x")));
        assertThat(doc.getDocumentElement().getAttribute("width")).isEqualTo("960");
        assertThat(groups(doc, "turn")).hasSize(200);
        assertThat(groups(doc, "tool")).hasSize(600);
        long labels = groups(doc, "turn").stream().filter(g -> g.getElementsByTagName("text").getLength() > 0).count();
        assertThat(labels).isZero(); // 4px per turn: no labels crammed in
        assertThat(groups(doc, "marker")).hasSizeGreaterThan(60);
    }

    @Test
    void aRunningSessionIsDrawnUpToNowItsRunningCallToTheEdge() throws Exception {
        Instant t0 = Instant.parse("2026-12-06T08:00:00Z");
        TurnReport open = new TurnReport(1, false, t0, -1, List.of("hi"), List.of(
                new ToolCallReport("bash", "sleep 60", ToolStatus.RUNNING, t0.plusMillis(300), -1, null, null)), 0, List.of());
        SessionReport live = new SessionReport(null, "m", null, t0, null, null, null, null, -1, List.of(open), 0,
                new SessionReport.Totals(1, 1, 0, 0, 0, null, null, null, 0, 0, 0, 3));
        Element call = (Element) groups(parse(TimelineSvg.render(live, t0.plusSeconds(12))), "tool").get(0)
                .getElementsByTagName("rect").item(0);
        double x = Double.parseDouble(call.getAttribute("x"));
        double width = Double.parseDouble(call.getAttribute("width"));
        // 0.3 s of 12 s in: the call starts near the left and runs to the right edge
        assertThat(x).isLessThan(TimelineSvg.LEFT + 30);
        assertThat(x + width).isCloseTo(TimelineSvg.WIDTH - TimelineSvg.RIGHT, org.assertj.core.data.Offset.offset(1.0));
        Element ended = (Element) groups(parse(TimelineSvg.render(live)), "tool").get(0).getElementsByTagName("rect").item(0);
        assertThat(Double.parseDouble(ended.getAttribute("width"))).as("without now: only what the events show").isLessThan(5);
    }

    @Test
    void oneTurnWithoutTimestampsStillDraws() throws Exception {
        TurnReport turn = new TurnReport(1, false, null, -1, List.of("hi"), List.of(
                new ToolCallReport("view", "README.md", ToolStatus.RUNNING, null, -1, null, null)), 0, List.of());
        SessionReport report = new SessionReport(null, null, null, null, null, null, null, null, -1, List.of(turn), 0,
                new SessionReport.Totals(1, 1, 0, 0, 0, null, null, null, 0, 0, 0, 3));
        Document doc = parse(TimelineSvg.render(report));
        assertThat(groups(doc, "turn")).hasSize(1);
        assertThat(doc.getElementsByTagName("title").item(0).getTextContent()).startsWith("UNFINISHED");
        assertThat(TimelineSvg.render(report)).contains(TimelineSvg.RUNNING);
    }
}
