package io.krabka.kernel.network;

import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * Answers the requests of one API. The network layer calls {@link #handle} off its event loops, one request of a
 * connection at a time and in the order the requests arrived; the returned future may complete later (a long-polling
 * Fetch) and on any thread, and the responses still go out in request order.
 *
 * <p>The versions a handler declares are the versions the broker enables and advertises for its API: a request for
 * another version never reaches it (Kafka closes the connection).
 */
public interface ApiHandler {

    /** The API this handler answers. */
    ApiKeys apiKey();

    /** The oldest version handled: by default Kafka 4.4's oldest. */
    default short oldestVersion() {
        return apiKey().oldestVersion();
    }

    /**
     * The latest version handled: by default Kafka 4.4's latest stable one (what Kafka advertises without
     * {@code unstable.api.versions.enable}); a handler caps it to what it implements.
     */
    default short latestVersion() {
        return apiKey().latestVersion(false);
    }

    /**
     * Handles one request. The request, and any records in its body (which share its bytes), are heap objects the
     * handler may keep as long as it needs. A handler that throws or completes exceptionally is answered with the request's error
     * response, as Kafka does ({@code AbstractRequest.getErrorResponse}), or with a closed connection where the
     * request has none (acks=0 Produce).
     */
    CompletableFuture<Response> handle(Request request);
}
