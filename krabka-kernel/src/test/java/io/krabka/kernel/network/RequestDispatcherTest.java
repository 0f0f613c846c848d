package io.krabka.kernel.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A handler's failure becomes the request's error response; one Kafka has no code for (UNKNOWN_SERVER_ERROR) is
 * logged at ERROR with the request, as Kafka's {@code handleError} logs it, while an error that is an answer is not.
 */
class RequestDispatcherTest {
    private static final short VERSION = 12;

    private final Logger logger = Logger.getLogger(RequestDispatcher.class.getName());
    private final List<LogRecord> logged = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };
    private Level levelBefore;

    @BeforeEach
    void captureLogs() {
        levelBefore = logger.getLevel();
        logger.setLevel(Level.ALL);
        logger.addHandler(capture);
    }

    @AfterEach
    void release() {
        logger.removeHandler(capture);
        logger.setLevel(levelBefore);
    }

    @Test
    void anUnexpectedFailureIsAnsweredUnknownServerErrorAndLoggedAtErrorWithTheRequest() throws Exception {
        IllegalStateException bug = new IllegalStateException("a bug");
        Response response = dispatcher(CompletableFuture.failedFuture(bug))
                .dispatch(request(41))
                .get(1, TimeUnit.MINUTES);
        assertEquals(Errors.UNKNOWN_SERVER_ERROR.code(), topicError(response));
        List<LogRecord> errors =
                logged.stream().filter(r -> r.getLevel() == Level.SEVERE).toList();
        assertEquals(1, errors.size(), logged.toString());
        assertTrue(
                errors.getFirst().getMessage().contains("correlationId=41"),
                errors.getFirst().getMessage());
        assertTrue(
                errors.getFirst().getMessage().contains("METADATA"),
                errors.getFirst().getMessage());
        assertSame(bug, errors.getFirst().getThrown());
    }

    @Test
    void anErrorKafkaHasACodeForIsAnAnswerNotLoggedAtError() throws Exception {
        Response response = dispatcher(CompletableFuture.failedFuture(new InvalidRequestException("no")))
                .dispatch(request(42))
                .get(1, TimeUnit.MINUTES);
        assertEquals(Errors.INVALID_REQUEST.code(), topicError(response));
        assertTrue(logged.stream().noneMatch(r -> r.getLevel() == Level.SEVERE), logged.toString());
    }

    private static RequestDispatcher dispatcher(CompletableFuture<Response> answer) {
        ApiHandler metadata = new ApiHandler() {
            @Override
            public ApiKeys apiKey() {
                return ApiKeys.METADATA;
            }

            @Override
            public CompletableFuture<Response> handle(Request request) {
                return answer;
            }
        };
        return RequestDispatcher.create(List.of(metadata), table -> new ApiHandler() {
            @Override
            public ApiKeys apiKey() {
                return ApiKeys.API_VERSIONS;
            }

            @Override
            public CompletableFuture<Response> handle(Request request) {
                return CompletableFuture.failedFuture(new UnsupportedOperationException());
            }
        });
    }

    private static Request request(int correlationId) {
        InetSocketAddress local = new InetSocketAddress("127.0.0.1", 9092);
        InetSocketAddress remote = new InetSocketAddress("127.0.0.1", 50000);
        return new Request(
                new RequestHeader(ApiKeys.METADATA, VERSION, "test", correlationId),
                new MetadataRequest.Builder(List.of("orders"), false).build(VERSION),
                new ConnectionInfo("c-1", local, remote, "PLAINTEXT", SecurityProtocol.PLAINTEXT),
                64,
                KafkaPrincipal.ANONYMOUS);
    }

    // Kafka's error response to Metadata puts the error on each topic asked for.
    private static short topicError(Response response) {
        MetadataResponseData data = (MetadataResponseData)
                assertInstanceOf(Response.Send.class, response).data();
        return data.topics().find("orders").errorCode();
    }
}
