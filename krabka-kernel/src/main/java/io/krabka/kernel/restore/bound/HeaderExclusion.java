package io.krabka.kernel.restore.bound;

import io.krabka.kernel.record.Header;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * {@code --exclude-header NAME=REGEX}: a record is excluded when one of its headers is named exactly {@code NAME}
 * and the regex is found in that header's raw value bytes (see {@link ByteChars}). A header with a null value
 * has no bytes to match, so it never excludes a record. The value is split at its first {@code =}: the regex
 * may hold {@code =}, the name cannot.
 *
 * @param name    the header's name, not empty
 * @param pattern the regex over the value, compiled so that only {@code \n} ends a line
 */
public record HeaderExclusion(String name, Pattern pattern) {

    /** The flag's name. */
    public static final String FLAG = "--exclude-header";

    /** Checks the parts. */
    public HeaderExclusion {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(pattern, "pattern");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("the header name is empty");
        }
    }

    /**
     * Parses the flag's value.
     *
     * @throws InvalidRestoreArgumentException naming the flag and the value when it is not {@code NAME=REGEX} with
     *                                         a name and a regex that compiles
     */
    public static HeaderExclusion parse(String value) throws InvalidRestoreArgumentException {
        int equals = value.indexOf('=');
        if (equals < 0) {
            throw InvalidRestoreArgumentException.of(FLAG, value, "expected NAME=REGEX");
        }
        if (equals == 0) {
            throw InvalidRestoreArgumentException.of(FLAG, value, "the header name is empty");
        }
        return new HeaderExclusion(
                value.substring(0, equals), ArgumentText.byteRegex(FLAG, value, value.substring(equals + 1)));
    }

    /** Whether a record with {@code headers} is excluded. */
    public boolean matches(List<Header> headers) {
        for (Header header : headers) {
            if (header.key().equals(name)
                    && header.value() != null
                    && pattern.matcher(new ByteChars(header.value())).find()) {
                return true;
            }
        }
        return false;
    }

    /** The flag's value: {@code NAME=REGEX}. */
    @Override
    public String toString() {
        return name + "=" + pattern.pattern();
    }
}
