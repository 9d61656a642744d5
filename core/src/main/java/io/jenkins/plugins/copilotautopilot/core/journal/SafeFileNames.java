package io.jenkins.plugins.copilotautopilot.core.journal;

import java.nio.file.Path;

/**
 * File names made from values we did not choose (session ids, step ids, tool names): only letters,
 * digits, {@code . _ -}; never empty, never {@code .} or {@code ..}, bounded in length. A name made
 * here always stays inside the folder it is resolved against.
 */
public final class SafeFileNames {
    private static final int MAX_LENGTH = 100;

    private SafeFileNames() {
    }

    public static String of(String value) {
        StringBuilder out = new StringBuilder();
        if (value != null) {
            for (int i = 0; i < value.length() && out.length() < MAX_LENGTH; i++) {
                char c = value.charAt(i);
                boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                        || c == '-' || c == '_' || c == '.';
                out.append(ok ? c : '_');
            }
        }
        while (out.length() > 0 && out.charAt(0) == '.') {
            out.setCharAt(0, '_');
        }
        return out.length() == 0 ? "_" : out.toString();
    }

    /** {@code folder/name} for an untrusted name, guaranteed to be directly inside {@code folder}. */
    public static Path resolveInside(Path folder, String untrustedName) {
        Path resolved = folder.resolve(of(untrustedName)).normalize();
        if (!folder.normalize().equals(resolved.getParent())) {
            throw new IllegalArgumentException("File name escapes its folder: " + untrustedName);
        }
        return resolved;
    }
}
