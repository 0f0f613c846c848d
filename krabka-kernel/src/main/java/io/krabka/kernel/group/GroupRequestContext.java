package io.krabka.kernel.group;

import java.util.Objects;

/**
 * What the coordinator needs of a request besides its body.
 *
 * @param clientId   the client id of the request header
 * @param clientHost the client's address as Kafka prints it ("/127.0.0.1")
 * @param apiVersion the request's version
 */
public record GroupRequestContext(String clientId, String clientHost, short apiVersion) {

    /** Checks the strings are present. */
    public GroupRequestContext {
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(clientHost, "clientHost");
    }
}
