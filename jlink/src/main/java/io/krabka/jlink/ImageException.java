package io.krabka.jlink;

import java.io.Serial;

/** Why an image could not be built, in one line for the user. Nothing half-built is left behind. */
final class ImageException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    ImageException(String message) {
        super(message);
    }

    ImageException(String message, Throwable cause) {
        super(message, cause);
    }
}
