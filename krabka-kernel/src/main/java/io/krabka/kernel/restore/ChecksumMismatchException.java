package io.krabka.kernel.restore;

import java.io.Serial;

/** A batch whose stored CRC-32C differs from the CRC-32C of the bytes it covers (attributes to the end). */
public final class ChecksumMismatchException extends RestoreIntegrityException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final long expected;
    private final long computed;

    /** The batch at {@code position} of {@code key} stores {@code expected} but its bytes give {@code computed}. */
    public ChecksumMismatchException(String key, long position, long expected, long computed) {
        super(key, position, "record batch fails its CRC-32C (stored " + expected + ", computed " + computed + ")");
        this.expected = expected;
        this.computed = computed;
    }

    /** The CRC-32C the batch stores. */
    public long expected() {
        return expected;
    }

    /** The CRC-32C of the batch's bytes as read. */
    public long computed() {
        return computed;
    }
}
