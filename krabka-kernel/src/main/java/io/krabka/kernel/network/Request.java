package io.krabka.kernel.network;

import java.util.Objects;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * A request as it arrived: Kafka's header, the body parsed by kafka-clients, and the connection.
 *
 * @param header      the request header (a null client id reads as "", as Kafka's {@code RequestHeader.parse})
 * @param body        the body, parsed at {@link #apiVersion()}; an ApiVersions request of a version this broker
 *                    does not know is an empty v0 body with {@code hasUnsupportedRequestVersion()}, as in Kafka
 * @param connection  the connection it came on
 * @param sizeInBytes the frame's size, header included
 */
public record Request(RequestHeader header, AbstractRequest body, ConnectionInfo connection, int sizeInBytes) {

    /** Checks the parts are present and agree. */
    public Request {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(connection, "connection");
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
}
