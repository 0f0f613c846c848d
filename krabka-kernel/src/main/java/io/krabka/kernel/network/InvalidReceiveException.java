package io.krabka.kernel.network;

/**
 * A frame whose size prefix is negative or above {@code socket.request.max.bytes}: Kafka's
 * {@code InvalidReceiveException}, after which the connection is closed without reading the frame.
 */
public final class InvalidReceiveException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    InvalidReceiveException(String message) {
        super(message);
    }

    /** The exception of a size prefix, or null if the size is acceptable. */
    static InvalidReceiveException check(int size, int maxSize) {
        if (size < 0) {
            return new InvalidReceiveException("Invalid receive (size = " + size + ")");
        }
        if (size > maxSize) {
            return new InvalidReceiveException("Invalid receive (size = " + size + " larger than " + maxSize + ")");
        }
        return null;
    }
}
