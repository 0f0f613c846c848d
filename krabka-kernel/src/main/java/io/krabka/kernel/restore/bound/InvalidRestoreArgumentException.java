package io.krabka.kernel.restore.bound;

import io.krabka.kernel.restore.RestoreException;
import java.io.Serial;

/**
 * A restore flag whose value cannot be parsed, or flags that contradict each other or the topic selection. The
 * message is one line that names the flag and its value; the launcher maps this type to its bad-arguments exit
 * code.
 */
public final class InvalidRestoreArgumentException extends RestoreException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** A failure described by a one-line {@code message}. */
    public InvalidRestoreArgumentException(String message) {
        super(message);
    }

    /**
     * A value of {@code flag} that is wrong for {@code reason}: {@code --flag 'value': reason}. Control characters
     * in the value are escaped so that the message stays on one line whatever the operator typed.
     */
    static InvalidRestoreArgumentException of(String flag, String value, String reason) {
        return new InvalidRestoreArgumentException(flag + " '" + oneLine(value) + "': " + reason);
    }

    private static String oneLine(String value) {
        StringBuilder out = new StringBuilder(value.length());
        value.codePoints().forEach(c -> {
            if (Character.isISOControl(c)) {
                out.append(String.format("\\u%04x", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }
}
