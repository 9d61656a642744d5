package io.jenkins.plugins.copilotautopilot.pages;

import io.jenkins.plugins.copilotautopilot.testing.RecordedSessions;

import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import io.jenkins.plugins.copilotautopilot.core.outcome.Outcome;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What lands in {@code build.xml}: bounded text, one id per invocation, safe concurrent saves, tolerant loading. */
@WithJenkins
class SessionStorageTest {
    private JenkinsRule j;
    private FreeStyleProject project;
    private FreeStyleBuild build;

    @BeforeEach
    void setUp(JenkinsRule rule) throws Exception {
        this.j = rule;
        project = j.createFreeStyleProject("storage");
        build = j.buildAndAssertSuccess(project);
    }

    @Test
    void aLongSummaryIsCutInBuildXmlAndSaysHowMuch() throws Exception {
        String summary = "a".repeat(9_999) + "\uD83D\uDE00" + "b".repeat(15_000); // an emoji across the limit
        SessionRecord record = RecordedSessions.recordNumbers(build, "build-step-1", Outcome.COMPLETED, summary, 1, 1, 0);

        assertThat(record.getEnding().getSummary(), startsWith("a".repeat(9_999) + "\u2026 (cut: "));
        assertThat(record.getEnding().getSummary(), endsWith("(cut: 15002 characters)"));
        assertThat(record.getEnding().getSummary().length(), lessThan(RecordTexts.MAX_TEXT + 40));
        String xml = Files.readString(build.getRootDir().toPath().resolve("build.xml"), StandardCharsets.UTF_8);
        assertThat(xml, not(containsString("b".repeat(100))));
        String stored = xml.substring(xml.indexOf("<summary>") + "<summary>".length(), xml.indexOf("</summary>"));
        assertThat(stored.length(), lessThan(RecordTexts.MAX_TEXT + 40));
        assertThat(stored, endsWith("(cut: 15002 characters)"));
        assertEquals("short", RecordTexts.cut("short"));
        assertNull(RecordTexts.cut(null));
    }

    @Test
    void invocationsRunningAtTheSameTimeGetDifferentIds() throws Exception {
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<String>> ids = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                ids.add(pool.submit(() -> {
                    start.await();
                    return CopilotAutopilotRunAction.nextBuildStepId(build);
                }));
            }
            start.countDown();
            Set<String> distinct = new HashSet<>();
            for (Future<String> id : ids) {
                distinct.add(id.get(30, TimeUnit.SECONDS));
            }
            assertEquals(threads, distinct.size(), distinct.toString());
        } finally {
            pool.shutdownNow();
        }
        // the ids reserved so far are not handed out again, also once sessions are recorded under them
        RecordedSessions.recordNumbers(build, "build-step-1", Outcome.COMPLETED, "Done.", 1, 1, 0);
        assertEquals("build-step-9", CopilotAutopilotRunAction.nextBuildStepId(build));
    }

    @Test
    void anIdReservedBeforeTheSessionEndsShowsNothingYet() throws Exception {
        String id = CopilotAutopilotRunAction.nextBuildStepId(build);
        assertEquals("build-step-1", id);
        CopilotAutopilotRunAction action = build.getAction(CopilotAutopilotRunAction.class);
        assertTrue(action.getProjectActions().isEmpty());
        assertNull(action.getIconFileName(), "no side-panel link to an empty page");
        HtmlPage page = j.createWebClient().getPage(build);
        assertTrue(page.querySelectorAll(".copilot-autopilot-summary").isEmpty());
    }

    @Test
    void sessionsAreSavedWhileOthersAreRecorded() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Object>> work = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                int thread = t;
                work.add(pool.submit((Callable<Object>) () -> {
                    start.await();
                    for (int i = 0; i < 150; i++) {
                        RecordedSessions.recordNumbers(build, "t" + thread + "-" + i, Outcome.COMPLETED, "Done " + i, 1, 1, 0);
                    }
                    return null;
                }));
            }
            work.add(pool.submit((Callable<Object>) () -> {
                start.await();
                for (int i = 0; i < 150; i++) {
                    build.save(); // XStream walks the sessions list without the record lock
                    build.getAction(CopilotAutopilotRunAction.class);
                }
                return null;
            }));
            start.countDown();
            for (Future<Object> f : work) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(300, build.getAction(CopilotAutopilotRunAction.class).getSessions().size());
        j.jenkins.reload();
        FreeStyleBuild reloaded = j.jenkins.getItemByFullName("storage", FreeStyleProject.class).getBuildByNumber(1);
        assertEquals(300, reloaded.getAction(CopilotAutopilotRunAction.class).getSessions().size());
    }

    @Test
    void aBuildWithAnUnknownOutcomeAndMissingFieldsStillLoadsAndRenders() throws Exception {
        RecordedSessions.into(build).record("build-step-1");
        RecordedSessions.recordNumbers(build, "build-step-2", Outcome.FAILED, "Gone wrong.", 2, 3, 0);
        Path xml = build.getRootDir().toPath().resolve("build.xml");
        String text = Files.readString(xml, StandardCharsets.UTF_8);
        String edited = text.replaceFirst("<outcome>COMPLETED</outcome>", "<outcome>FINISHED_SOMEHOW</outcome>")
                .replaceFirst("(?s)<summary>Gone wrong\\.</summary>", "")
                .replaceFirst("(?s)<invocationId>build-step-2</invocationId>", "")
                .replaceFirst("(?s)<outcome>FAILED</outcome>", "");
        assertTrue(!edited.equals(text) && edited.contains("FINISHED_SOMEHOW") && !edited.contains("<outcome>FAILED"), edited);
        Files.writeString(xml, edited, StandardCharsets.UTF_8);

        j.jenkins.reload();

        FreeStyleProject reloaded = j.jenkins.getItemByFullName("storage", FreeStyleProject.class);
        FreeStyleBuild b = reloaded.getBuildByNumber(1);
        CopilotAutopilotRunAction action = b.getAction(CopilotAutopilotRunAction.class);
        List<SessionRecord> sessions = action.getSessions();
        assertEquals(2, sessions.size());
        assertEquals("FINISHED_SOMEHOW", sessions.get(0).getEnding().getOutcome());
        assertEquals(Outcomes.UNKNOWN_CLASS, sessions.get(0).getEnding().getOutcomeClass());
        assertNull(sessions.get(1).getEnding().getOutcome());
        assertNull(sessions.get(1).getEnding().getSummary());
        assertNull(sessions.get(1).getInvocationId());
        assertEquals("FINISHED_SOMEHOW", action.getWorstOutcome());
        assertEquals(Outcomes.ACTION_ICON, action.getBadgeIcon());

        JenkinsRule.WebClient wc = j.createWebClient();
        assertThat(wc.getPage(b).querySelector(".copilot-autopilot-summary").asNormalizedText(), containsString("FINISHED_SOMEHOW"));
        HtmlPage sessionPage = wc.getPage(b, CopilotAutopilotRunAction.URL_NAME + "/");
        assertEquals(2, sessionPage.querySelectorAll("section.copilot-session").size());
        assertEquals(2, sessionPage.querySelectorAll("section." + Outcomes.UNKNOWN_CLASS).size());
        wc.getPage(reloaded);
    }
}
