package io.krabka.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/** Byte comparisons that report where two contents part instead of printing them. */
final class ByteAssertions {

    private ByteAssertions() {}

    /** Reads a stream to its end and closes it. */
    static byte[] readAll(InputStream stream) throws IOException {
        try (stream) {
            return stream.readAllBytes();
        }
    }

    /** Fails unless the two contents are identical, naming {@code what} was compared. */
    static void assertSameBytes(byte[] expected, byte[] actual, String what) {
        if (actual == null) {
            fail(what + ": got no stream");
        }
        int mismatch = Arrays.mismatch(expected, actual);
        if (mismatch >= 0) {
            fail(what + ": expected " + expected.length + " bytes, got " + actual.length
                    + (mismatch < Math.min(expected.length, actual.length)
                            ? ", first difference at byte " + mismatch
                            : ", identical as far as the shorter one goes"));
        }
    }
}
