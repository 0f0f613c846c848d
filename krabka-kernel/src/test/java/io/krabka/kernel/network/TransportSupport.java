package io.krabka.kernel.network;

import org.junit.jupiter.api.Assumptions;

/** Which transports this machine can run. */
final class TransportSupport {

    private TransportSupport() {}

    /** Skips a test of epoll where the native transport does not load (it is optional). */
    static void assumeAvailable(Transport transport) {
        if (transport == Transport.EPOLL) {
            Assumptions.assumeTrue(Transport.epollAvailable(), "epoll is not available here");
        }
    }
}
