package io.jenkins.plugins.copilotautopilot.core.install;

import java.net.URI;

/** URLs as they may be shown: a mirror's {@code user:password@} is never printed or stored. */
final class Urls {
    private Urls() {
    }

    static String redact(URI uri) {
        return redact(uri.toString());
    }

    static String redact(String url) {
        int scheme = url.indexOf("://");
        if (scheme < 0) {
            return url;
        }
        int start = scheme + 3;
        int end = url.length();
        for (char c : new char[] {'/', '?', '#'}) {
            int i = url.indexOf(c, start);
            if (i >= 0 && i < end) {
                end = i;
            }
        }
        int at = url.lastIndexOf('@', end - 1);
        if (at < start) {
            return url;
        }
        return url.substring(0, start) + "****@" + url.substring(at + 1);
    }
}
