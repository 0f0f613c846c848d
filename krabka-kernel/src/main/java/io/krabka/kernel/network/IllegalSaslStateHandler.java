package io.krabka.kernel.network;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.SaslAuthenticateResponseData;
import org.apache.kafka.common.message.SaslHandshakeResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;

/**
 * SaslHandshake and SaslAuthenticate where they reach a handler, as Kafka's {@code KafkaApis} answers them: on a
 * listener without SASL, or on a connection that authenticated and does not re-authenticate, ILLEGAL_SASL_STATE.
 * Every broker has them, so ApiVersions advertises both on every listener, as Kafka's does.
 *
 * @param apiKey SASL_HANDSHAKE or SASL_AUTHENTICATE
 */
record IllegalSaslStateHandler(ApiKeys apiKey) implements ApiHandler {

    /** Both APIs. */
    static List<ApiHandler> both() {
        return List.of(
                new IllegalSaslStateHandler(ApiKeys.SASL_HANDSHAKE),
                new IllegalSaslStateHandler(ApiKeys.SASL_AUTHENTICATE));
    }

    /** Checks the API is one of the two. */
    IllegalSaslStateHandler {
        if (apiKey != ApiKeys.SASL_HANDSHAKE && apiKey != ApiKeys.SASL_AUTHENTICATE) {
            throw new IllegalArgumentException("not a SASL API: " + apiKey);
        }
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        return CompletableFuture.completedFuture(Response.send(
                apiKey == ApiKeys.SASL_HANDSHAKE
                        ? new SaslHandshakeResponseData().setErrorCode(Errors.ILLEGAL_SASL_STATE.code())
                        : new SaslAuthenticateResponseData()
                                .setErrorCode(Errors.ILLEGAL_SASL_STATE.code())
                                .setErrorMessage("SaslAuthenticate request received after successful authentication")));
    }
}
