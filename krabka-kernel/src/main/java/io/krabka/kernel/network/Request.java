package io.krabka.kernel.network;

import java.net.InetAddress;
import java.util.Objects;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;

/**
 * A request as it arrived: Kafka's header, the body parsed by kafka-clients, the connection and who sent it. It is
 * the context an authorizer decides on, as Kafka's {@code RequestContext} is.
 *
 * @param header      the request header (a null client id reads as "", as Kafka's {@code RequestHeader.parse})
 * @param body        the body, parsed at {@link #apiVersion()}; an ApiVersions request of a version this broker
 *                    does not know is an empty v0 body with {@code hasUnsupportedRequestVersion()}, as in Kafka
 * @param connection  the connection it came on
 * @param sizeInBytes the frame's size, header included
 * @param principal   who sent it, as the connection authenticated them when the request was handled
 */
public record Request(
        RequestHeader header,
        AbstractRequest body,
        ConnectionInfo connection,
        int sizeInBytes,
        KafkaPrincipal principal)
        implements AuthorizableRequestContext {

    /** Checks the parts are present and agree. */
    public Request {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(principal, "principal");
        if (header.apiKey() != body.apiKey()) {
            throw new IllegalArgumentException("header of " + header.apiKey() + " with a body of " + body.apiKey());
        }
    }

    /** The API. */
    public ApiKeys apiKey() {
        return header.apiKey();
    }

    /** The version the body was read at and the response is written at. */
    public short apiVersion() {
        return body.version();
    }

    /** This request as {@code principal} sent it (the connection authenticated, or re-authenticated, since). */
    public Request withPrincipal(KafkaPrincipal other) {
        return new Request(header, body, connection, sizeInBytes, other);
    }

    @Override
    public String listenerName() {
        return connection.listenerName();
    }

    @Override
    public SecurityProtocol securityProtocol() {
        return connection.protocol();
    }

    @Override
    public InetAddress clientAddress() {
        return connection.remote().getAddress();
    }

    @Override
    public int requestType() {
        return header.apiKey().id;
    }

    @Override
    public int requestVersion() {
        return header.apiVersion();
    }

    @Override
    public String clientId() {
        return header.clientId();
    }

    @Override
    public int correlationId() {
        return header.correlationId();
    }
}
