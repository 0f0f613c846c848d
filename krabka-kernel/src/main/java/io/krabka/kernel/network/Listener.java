package io.krabka.kernel.network;

import io.krabka.kernel.security.ListenerSasl;
import io.krabka.kernel.security.ListenerTls;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/**
 * One listener the socket server binds: Kafka's listener name, its address and security protocol, and the TLS and
 * SASL that protocol needs.
 *
 * @param name     the listener's name, upper case ({@code PLAINTEXT}, {@code SASL_SSL})
 * @param address  where it listens (port 0: any free port)
 * @param protocol its security protocol
 * @param tls      its TLS: present exactly for SSL and SASL_SSL
 * @param sasl     its SASL: present exactly for SASL_PLAINTEXT and SASL_SSL
 */
public record Listener(
        String name,
        InetSocketAddress address,
        SecurityProtocol protocol,
        Optional<ListenerTls> tls,
        Optional<ListenerSasl> sasl) {

    /** Checks the parts agree with the protocol. */
    public Listener {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(sasl, "sasl");
        boolean wantsTls = protocol == SecurityProtocol.SSL || protocol == SecurityProtocol.SASL_SSL;
        boolean wantsSasl = protocol == SecurityProtocol.SASL_PLAINTEXT || protocol == SecurityProtocol.SASL_SSL;
        if (wantsTls != tls.isPresent() || wantsSasl != sasl.isPresent()) {
            throw new IllegalArgumentException("listener " + name + " is " + protocol + ": TLS "
                    + (wantsTls ? "needed" : "not wanted") + ", SASL " + (wantsSasl ? "needed" : "not wanted"));
        }
    }

    /** A PLAINTEXT listener named PLAINTEXT. */
    public static Listener plaintext(InetSocketAddress address) {
        return new Listener(
                SecurityProtocol.PLAINTEXT.name,
                address,
                SecurityProtocol.PLAINTEXT,
                Optional.empty(),
                Optional.empty());
    }
}
