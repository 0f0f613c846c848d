package io.krabka.testservers;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free ports on 127.0.0.1 for the servers the tests start. */
final class LoopbackPorts {
    private LoopbackPorts() {}

    /** A port nothing listens on now; a server started next takes it (a race no test here has lost). */
    static int free() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
