package io.krabka.kernel.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.errors.NotCoordinatorException;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.HeartbeatResponse;
import org.apache.kafka.common.requests.MetadataResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Responses in request order whatever the handlers do; no response, closed connections, and failed handlers. */
@ExtendWith(NettyLeakCheck.class)
class OrderingIT {

    private static final short METADATA_VERSION = 12;
    private SocketServer server;

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void responsesGoOutInRequestOrderWhenHandlersCompleteInReverse() throws Exception {
        HeldHandler metadata = new HeldHandler(ApiKeys.METADATA);
        server = Servers.start(Servers.config(), metadata);
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            int requests = 5;
            for (int id = 0; id < requests; id++) {
                wire.send(ApiKeys.METADATA, METADATA_VERSION, id, new MetadataRequestData());
            }
            List<HeldHandler.Held> held = new ArrayList<>();
            for (int id = 0; id < requests; id++) {
                held.add(metadata.next());
            }
            // The handlers were called one at a time in arrival order.
            assertEquals(List.of(0, 1, 2, 3, 4), metadata.handled());
            for (HeldHandler.Held h : held.reversed()) {
                h.response()
                        .complete(Response.send(new MetadataResponseData()
                                .setThrottleTimeMs(1000 + h.request().header().correlationId())));
            }
            for (int id = 0; id < requests; id++) {
                MetadataResponse response =
                        wire.receive(ApiKeys.METADATA, METADATA_VERSION, id, MetadataResponse.class);
                assertEquals(1000 + id, response.throttleTimeMs());
            }
        }
    }

    @Test
    void aConnectionPipelinesAtMostTheBoundAndReadsOnAsResponsesGoOut() throws Exception {
        HeldHandler metadata = new HeldHandler(ApiKeys.METADATA);
        server = Servers.start(Servers.config().withRequestBounds(2, 500, -1), metadata);
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            for (int id = 0; id < 6; id++) {
                wire.send(ApiKeys.METADATA, METADATA_VERSION, id, new MetadataRequestData());
            }
            // Two unanswered requests reach the handlers; the rest wait in the socket.
            assertTrue(afterAMoment(metadata) <= 2);
            for (int id = 0; id < 6; id++) {
                HeldHandler.Held next = metadata.next();
                assertEquals(id, next.request().header().correlationId());
                next.response().complete(Response.send(new MetadataResponseData()));
                wire.receive(ApiKeys.METADATA, METADATA_VERSION, id, MetadataResponse.class);
                // Each response out lets one more request in: never more than two unanswered.
                assertTrue(afterAMoment(metadata) <= id + 3);
            }
        }
    }

    /** The number of requests handled, once the server had time to read what it would. */
    private static int afterAMoment(HeldHandler handler) throws InterruptedException {
        Thread.sleep(100);
        return handler.handled().size();
    }

    @Test
    void anAcksZeroProduceHasNoResponseAndAFailedOneClosesAfterTheResponsesBefore() throws Exception {
        HeldHandler produce = new HeldHandler(ApiKeys.PRODUCE);
        server = Servers.start(Servers.config(), produce);
        ProduceRequestData acksZero =
                new ProduceRequestData().setAcks((short) 0).setTimeoutMs(1000);
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            wire.send(ApiKeys.PRODUCE, (short) 9, 1, acksZero);
            wire.send(ApiKeys.API_VERSIONS, (short) 2, 2, new ApiVersionsRequestData());
            produce.next().response().complete(Response.none());
            wire.receive(ApiKeys.API_VERSIONS, (short) 2, 2, ApiVersionsResponse.class);

            wire.send(ApiKeys.API_VERSIONS, (short) 2, 3, new ApiVersionsRequestData());
            wire.send(ApiKeys.PRODUCE, (short) 9, 4, acksZero);
            wire.send(ApiKeys.API_VERSIONS, (short) 2, 5, new ApiVersionsRequestData());
            produce.next().response().complete(Response.closeConnection("a partition failed"));
            wire.receive(ApiKeys.API_VERSIONS, (short) 2, 3, ApiVersionsResponse.class);
            assertNull(wire.readFrame(), "closed, without answering the request after the produce");
        }
    }

    @Test
    void aFailedHandlerIsAnsweredWithTheRequestsErrorResponse() throws Exception {
        ApiHandler heartbeat = new ApiHandler() {
            @Override
            public ApiKeys apiKey() {
                return ApiKeys.HEARTBEAT;
            }

            @Override
            public CompletableFuture<Response> handle(Request request) {
                if (request.header().correlationId() == 1) {
                    throw new IllegalStateException("a bug");
                }
                return CompletableFuture.failedFuture(new NotCoordinatorException("moved"));
            }
        };
        server = Servers.start(Servers.config(), heartbeat);
        HeartbeatRequestData body = new HeartbeatRequestData().setGroupId("g").setMemberId("m");
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            wire.send(ApiKeys.HEARTBEAT, (short) 4, 1, body);
            wire.send(ApiKeys.HEARTBEAT, (short) 4, 2, body);
            assertEquals(
                    Errors.UNKNOWN_SERVER_ERROR,
                    wire.receive(ApiKeys.HEARTBEAT, (short) 4, 1, HeartbeatResponse.class)
                            .error());
            assertEquals(
                    Errors.NOT_COORDINATOR,
                    wire.receive(ApiKeys.HEARTBEAT, (short) 4, 2, HeartbeatResponse.class)
                            .error());
        }
    }

    @Test
    void aFailedAcksZeroProduceClosesTheConnection() throws Exception {
        ApiHandler produce = new ApiHandler() {
            @Override
            public ApiKeys apiKey() {
                return ApiKeys.PRODUCE;
            }

            @Override
            public CompletableFuture<Response> handle(Request request) {
                return CompletableFuture.failedFuture(new IllegalStateException("the log is gone"));
            }
        };
        server = Servers.start(Servers.config(), produce);
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            wire.send(ApiKeys.PRODUCE, (short) 9, 1, new ProduceRequestData().setAcks((short) 0));
            assertNull(wire.readFrame());
        }
    }
}
