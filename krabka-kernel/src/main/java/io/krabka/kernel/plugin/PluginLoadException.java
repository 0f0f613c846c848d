package io.krabka.kernel.plugin;

import java.io.Serial;

/**
 * A plugin that cannot be found, loaded or created. The message is one line, ready to print: it names the
 * plugin or folder and what is wrong.
 */
public final class PluginLoadException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    PluginLoadException(String message) {
        super(oneLine(message));
    }

    PluginLoadException(String message, Throwable cause) {
        super(oneLine(message), cause);
    }

    /** A cause as text for a one-line message: its type and message, or only its type when it has none. */
    static String describe(Throwable cause) {
        return cause.getMessage() == null
                ? cause.getClass().getName()
                : cause.getClass().getName() + ": " + cause.getMessage();
    }

    /** Messages quoted from causes (a resolver's, a plugin's) may span lines; a printed error may not. */
    private static String oneLine(String message) {
        return message.strip().replaceAll("\\s*\\R\\s*", "; ");
    }
}
