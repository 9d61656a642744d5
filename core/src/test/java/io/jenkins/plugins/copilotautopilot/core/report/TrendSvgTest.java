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
    void noBuildsIsAnEmptyChart() throws Exception {
        Document doc = TimelineSvgTest.parse(TrendSvg.render(List.of()));
        assertThat(TimelineSvgTest.groups(doc, "bar")).isEmpty();
    }
}
