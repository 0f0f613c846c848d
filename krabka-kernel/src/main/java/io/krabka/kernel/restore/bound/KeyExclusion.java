package io.krabka.kernel.restore.bound;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * {@code --exclude-key REGEX}: a record is excluded when the regex is found anywhere in its key's raw bytes (see
 * {@link ByteChars}; anchor with {@code ^} and {@code \z}). A record without a key is never excluded by this.
 *
 * @param pattern the regex, compiled so that only {@code \n} ends a line
 */
public record KeyExclusion(Pattern pattern) {

    /** The flag's name. */
    public static final String FLAG = "--exclude-key";

    /** Checks the part. */
    public KeyExclusion {
        Objects.requireNonNull(pattern, "pattern");
    }

    /**
     * Parses the flag's value.
     *
     * @throws InvalidRestoreArgumentException naming the flag and the value when the regex does not compile
     */
    public static KeyExclusion parse(String value) throws InvalidRestoreArgumentException {
        return new KeyExclusion(ArgumentText.byteRegex(FLAG, value, value));
    }

    /** Whether a record with {@code key} (null for none) is excluded. */
    public boolean matches(ByteBuffer key) {
        return key != null && pattern.matcher(new ByteChars(key)).find();
    }

    /** The flag's value: the regex. */
    @Override
    public String toString() {
        return pattern.pattern();
    }
}
