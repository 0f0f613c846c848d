package io.krabka.kernel.network;

import java.net.InetSocketAddress;
import java.util.Objects;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * The connection a request came on.
 *
 * @param connectionId Kafka's connection id: {@code localHost:localPort-remoteHost:remotePort-index}
 * @param local        the broker's end
 * @param remote       the client's end
 * @param listenerName the listener it came on, upper case as Kafka names it ({@code PLAINTEXT}, {@code SASL_SSL})
 * @param protocol     that listener's security protocol
 */
public record ConnectionInfo(
        String connectionId,
        InetSocketAddress local,
        InetSocketAddress remote,
        String listenerName,
        SecurityProtocol protocol) {

    /** Checks the fields are present. */
    public ConnectionInfo {
        Objects.requireNonNull(connectionId, "connectionId");
        Objects.requireNonNull(local, "local");
        Objects.requireNonNull(remote, "remote");
        Objects.requireNonNull(listenerName, "listenerName");
        Objects.requireNonNull(protocol, "protocol");
    }

    /** Names a connection as Kafka does; {@code index} tells apart connections reusing the same ports. */
    static ConnectionInfo of(
            InetSocketAddress local,
            InetSocketAddress remote,
            long index,
            String listenerName,
            SecurityProtocol protocol) {
        String id = local.getAddress().getHostAddress() + ":" + local.getPort() + "-"
                + remote.getAddress().getHostAddress() + ":" + remote.getPort() + "-" + index;
        return new ConnectionInfo(id, local, remote, listenerName, protocol);
    }
}
