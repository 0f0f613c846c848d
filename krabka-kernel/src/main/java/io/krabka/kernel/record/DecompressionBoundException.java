package io.krabka.kernel.record;

import java.io.IOException;

/** A compressed stream would decompress past its bound; readers turn it into {@link RecordTooLargeException}. */
final class DecompressionBoundException extends IOException {

    private static final long serialVersionUID = 1L;

    DecompressionBoundException(long bound) {
        super("decompresses past the bound of " + bound + " bytes");
    }
}
