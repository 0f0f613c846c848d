package io.krabka.kernel.broker;

import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.ConnectionInfo;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;

/** Handlers called directly, as the network layer calls them, and their answers encoded at the request's version. */
final class Requests {

    private static final ConnectionInfo CONNECTION = new ConnectionInfo(
            "127.0.0.1:9092-127.0.0.1:50000-0",
            new InetSocketAddress("127.0.0.1", 9092),
            new InetSocketAddress("127.0.0.1", 50000),
            "PLAINTEXT",
            SecurityProtocol.PLAINTEXT);

    private Requests() {}

    /**
     * The answer of {@code handler} to {@code body}, after a round trip through its bytes at the request's version
     * (what the client reads).
     */
    static <T extends ApiMessage> T call(ApiHandler handler, AbstractRequest body) throws Exception {
        return roundTrip(
                body,
                ((Response.Send) handler.handle(request(body, KafkaPrincipal.ANONYMOUS))
                                .get())
                        .data());
    }

    /**
     * The answer of {@code handler} to {@code body} sent by {@code principal}; a handler's failure with an error
     * Kafka has a code for is answered with the request's error response, as the network layer answers it.
     */
    static <T extends ApiMessage> T callAs(KafkaPrincipal principal, ApiHandler handler, AbstractRequest body)
            throws Exception {
        return roundTrip(body, answerAs(principal, handler, body));
    }

    /** The answer of {@code handler} to {@code data} as a request of {@code apiKey} at {@code version}, as {@link #callAs}. */
    static <T extends ApiMessage> T callAs(
            KafkaPrincipal principal, ApiHandler handler, ApiKeys apiKey, ApiMessage data, int version)
            throws Exception {
        return callAs(principal, handler, request(apiKey, data, (short) version));
    }

    /**
     * As {@link #callAs}, the answer as the handler gave it, not encoded: for responses whose records only the network
     * layer writes (Fetch).
     */
    static ApiMessage answerAs(KafkaPrincipal principal, ApiHandler handler, AbstractRequest body) throws Exception {
        ApiMessage data;
        try {
            data = ((Response.Send) handler.handle(request(body, principal)).get()).data();
        } catch (ApiException e) {
            data = body.getErrorResponse(e).data();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof ApiException failure)) {
                throw e;
            }
            data = body.getErrorResponse(failure).data();
        }
        return data;
    }

    /** {@code data} as a request of {@code apiKey} read at {@code version}, as the network layer reads it. */
    static AbstractRequest request(ApiKeys apiKey, ApiMessage data, short version) {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer bytes = ByteBuffer.allocate(data.size(cache, version));
        data.write(new ByteBufferAccessor(bytes), cache, version);
        bytes.flip();
        return AbstractRequest.parseRequest(apiKey, version, new ByteBufferAccessor(bytes)).request;
    }

    private static Request request(AbstractRequest body, KafkaPrincipal principal) {
        return new Request(new RequestHeader(body.apiKey(), body.version(), "test", 7), body, CONNECTION, 0, principal);
    }

    @SuppressWarnings("unchecked")
    private static <T extends ApiMessage> T roundTrip(AbstractRequest body, ApiMessage data) {
        short version = body.version();
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer bytes = ByteBuffer.allocate(data.size(cache, version));
        data.write(new ByteBufferAccessor(bytes), cache, version);
        bytes.flip();
        ApiMessage read = body.apiKey().messageType.newResponse();
        read.read(new ByteBufferAccessor(bytes), version);
        return (T) read;
    }
}
