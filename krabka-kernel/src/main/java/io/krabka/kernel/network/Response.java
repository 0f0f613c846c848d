package io.krabka.kernel.network;

import java.util.Objects;
import org.apache.kafka.common.protocol.ApiMessage;

/** What a handler answers a request with: a response message, nothing (acks=0 Produce), or a closed connection. */
public sealed interface Response {

    /** Sends {@code data}, encoded at the request's version; records fields may carry {@link WireRecords}. */
    static Response send(ApiMessage data) {
        return new Send(data);
    }

    /** Sends nothing: the request has no response, as an acks=0 Produce that succeeded. */
    static Response none() {
        return NoResponse.INSTANCE;
    }

    /**
     * Closes the connection once the responses before this one are sent: Kafka's answer to an acks=0 Produce that
     * failed, which makes the producer refresh its metadata.
     */
    static Response closeConnection(String reason) {
        return new CloseConnection(reason);
    }

    /**
     * A response message.
     *
     * @param data the response body; its API must be the request's
     */
    record Send(ApiMessage data) implements Response {
        /** Checks the message is present. */
        public Send {
            Objects.requireNonNull(data, "data");
        }
    }

    /** No response. */
    enum NoResponse implements Response {
        /** The one instance. */
        INSTANCE
    }

    /**
     * A closed connection.
     *
     * @param reason why, for the log
     */
    record CloseConnection(String reason) implements Response {
        /** Checks the reason is present. */
        public CloseConnection {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
