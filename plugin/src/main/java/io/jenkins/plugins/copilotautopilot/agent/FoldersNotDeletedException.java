package io.jenkins.plugins.copilotautopilot.agent;

import java.io.IOException;

/** The agent answered but could not delete a session's folders (files of another user): asking again will not help. */
public final class FoldersNotDeletedException extends IOException {
    private static final long serialVersionUID = 1L;

    FoldersNotDeletedException(String why) {
        super(why);
    }
}
