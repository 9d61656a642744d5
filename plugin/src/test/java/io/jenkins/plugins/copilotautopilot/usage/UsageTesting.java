package io.jenkins.plugins.copilotautopilot.usage;

import io.jenkins.plugins.copilotautopilot.core.quota.UsageExport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import jenkins.model.Jenkins;

/** The usage index as tests look at it. */
public final class UsageTesting {
    private UsageTesting() {
    }

    public static Path indexFile() {
        return Jenkins.get().getRootDir().toPath().resolve(Usage.FILE);
    }

    /** Every row of the last 30 days as CSV, as the administrators' export gives it. */
    public static String export() throws IOException {
        return UsageExport.csv(new UsageView(null, true).rows(UsageView.DEFAULT_DAYS));
    }

    /** Closes the index and deletes its file: the next use rebuilds it. */
    public static void deleteIndex() throws IOException {
        Usage.get().closeIndex();
        Files.delete(indexFile());
    }
}
