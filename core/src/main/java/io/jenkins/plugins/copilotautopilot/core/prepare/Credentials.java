package io.jenkins.plugins.copilotautopilot.core.prepare;

/** The credentials a session may use, where it runs. */
public interface Credentials {
    /**
     * The value of a Secret text credential, or null where there are no credentials (the runner).
     *
     * @param parameter the setting it is for, as the user knows it (a problem names it)
     */
    String credential(String id, String parameter) throws Unusable;
}
