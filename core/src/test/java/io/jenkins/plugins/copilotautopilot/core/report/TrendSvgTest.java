package io.jenkins.plugins.copilotautopilot.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

class TrendSvgTest {
    @Test
    void oneBarPerBuildInEachChart() throws Exception {
        List<TrendSvg.Point> points = List.of(
                new TrendSvg.Point("#1", "COMPLETED", 2, 3_000, 1.0, 12_345L),
                new TrendSvg.Point("#2", "FAILED", 5, 90_000, null),
                new TrendSvg.Point("#3 <b>\"x\"</b>", "INCOMPLETE", 7, 30_000, 2.5));
        String svg = TrendSvg.render(points);
        Document doc = TimelineSvgTest.parse(svg);

        // turns, duration, premium requests, tokens
        assertThat(TimelineSvgTest.groups(doc, "bar")).hasSize(12);
        assertThat(svg).contains(TimelineSvg.OK, TimelineSvg.FAILED, TimelineSvg.DENIED).doesNotContain("<b>");
        assertThat(TimelineSvgTest.groups(doc, "bar").get(2).getTextContent()).isEqualTo("#3 <b>\"x\"</b> INCOMPLETE: turns 7");
        assertThat(TimelineSvgTest.groups(doc, "bar").get(4).getTextContent()).isEqualTo("#2 FAILED: duration 1m 30s");
        assertThat(TimelineSvgTest.groups(doc, "bar").get(9).getTextContent()).isEqualTo("#1 COMPLETED: tokens 12,345");
        assertThat(TimelineSvgTest.groups(doc, "bar").get(10).getTextContent()).isEqualTo("#2 FAILED: tokens 0");
    }

    @Test
    void aiCreditsAreAChartOfTheirOwnWhereReportedAndABuildThatReportedNoneHasNoBarNotAZero() throws Exception {
        List<TrendSvg.Point> points = List.of(
                new TrendSvg.Point("#1", "COMPLETED", 2, 3_000, 1.0, 12_345L, 1_250.5),
                new TrendSvg.Point("#2", "COMPLETED", 3, 4_000, 0.0, 50_000L, null), // an own provider: none reported
                new TrendSvg.Point("#3", "FAILED", 1, 1_000, 0.0, 100L, 0.004));
        String svg = TrendSvg.render(points);
        Document doc = TimelineSvgTest.parse(svg);

        // turns, duration, AI credits, premium requests, tokens
        List<org.w3c.dom.Element> bars = TimelineSvgTest.groups(doc, "bar");
        assertThat(bars).hasSize(15);
        assertThat(bars.get(6).getTextContent()).isEqualTo("#1 COMPLETED: AI credits 1,250.5");
        assertThat(bars.get(7).getTextContent()).isEqualTo("#2 COMPLETED: AI credits not reported");
        assertThat(bars.get(8).getTextContent()).isEqualTo("#3 FAILED: AI credits <0.01");
        assertThat(bars.get(9).getTextContent()).isEqualTo("#1 COMPLETED: premium requests 1");
        assertThat(bars.get(14).getTextContent()).isEqualTo("#3 FAILED: tokens 100");
        assertThat(height(bars.get(6))).isEqualTo(TrendSvg.CHART_HEIGHT - 2);
        assertThat(height(bars.get(7))).as("unknown is no bar").isZero();
        assertThat(height(bars.get(8))).as("a small amount is a visible bar").isEqualTo(1);
        assertThat(svg).contains(">AI credits</text>").contains(">1,250.5</text>").doesNotContain("NaN");
    }

    @Test
    void withoutAiCreditsReportedTheTrendIsAsBefore() throws Exception {
        List<TrendSvg.Point> points = List.of(
                new TrendSvg.Point("#1", "COMPLETED", 2, 3_000, 1.0, 12_345L, null),
                new TrendSvg.Point("#2", "COMPLETED", 2, 3_000, 1.0, 12_345L));
        String svg = TrendSvg.render(points);
        assertThat(TimelineSvgTest.groups(TimelineSvgTest.parse(svg), "bar")).hasSize(8);
        assertThat(svg).doesNotContain("AI credits");
    }

    private static double height(org.w3c.dom.Element bar) {
        return Double.parseDouble(((org.w3c.dom.Element) bar.getElementsByTagName("rect").item(0)).getAttribute("height"));
    }

    @Test
    void noBuildsIsAnEmptyChart() throws Exception {
        Document doc = TimelineSvgTest.parse(TrendSvg.render(List.of()));
        assertThat(TimelineSvgTest.groups(doc, "bar")).isEmpty();
    }
}
