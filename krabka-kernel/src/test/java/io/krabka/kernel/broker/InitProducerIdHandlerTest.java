package io.krabka.kernel.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.fetch.FetchSessionCacheConfig;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.requests.InitProducerIdRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * InitProducerId through the transaction coordinator: idempotent producers get new ids at epoch 0; a transactional id
 * keeps its producer id and bumps its epoch, fencing the producer before; Kafka's refusals.
 */
class InitProducerIdHandlerTest {

    @TempDir
    Path dir;

    private DataPlane plane;
    private InitProducerIdHandler handler;

    @BeforeEach
    void start() throws Exception {
        plane = DataPlane.start(dir, FetchSessionCacheConfig.DEFAULTS);
        handler = new InitProducerIdHandler(AuthHelper.NONE, plane.transactions);
    }

    @AfterEach
    void stop() throws Exception {
        plane.close();
    }

    @Test
    void idempotentProducersGetNewIdsAtEpochZero() throws Exception {
        for (short version = ApiKeys.INIT_PRODUCER_ID.oldestVersion(); version <= handler.latestVersion(); version++) {
            InitProducerIdResponseData response = call(request(null, -1, (short) -1, version));
            assertEquals(Errors.NONE.code(), response.errorCode());
            assertEquals(version, response.producerId(), "ids count up from 0");
            assertEquals(0, response.producerEpoch());
        }
    }

    @Test
    void aTransactionalIdKeepsItsProducerIdAndBumpsItsEpoch() throws Exception {
        awaitCoordinator("payments");
        short version = handler.latestVersion();
        InitProducerIdResponseData first = call(request("payments", -1, (short) -1, version));
        assertEquals(Errors.NONE.code(), first.errorCode());
        assertEquals(0, first.producerEpoch());
        InitProducerIdResponseData second = call(request("payments", -1, (short) -1, version));
        assertEquals(Errors.NONE.code(), second.errorCode());
        assertEquals(first.producerId(), second.producerId());
        assertEquals(1, second.producerEpoch(), "a new producer of the id fences the first");

        // KIP-360: the fenced producer recovering with its old epoch is fenced, as PRODUCER_FENCED from v4.
        InitProducerIdResponseData fenced = call(request("payments", first.producerId(), (short) 0, version));
        assertEquals(Errors.PRODUCER_FENCED.code(), fenced.errorCode());
        InitProducerIdResponseData fencedV3 = call(request("payments", first.producerId(), (short) 0, (short) 3));
        assertEquals(Errors.INVALID_PRODUCER_EPOCH.code(), fencedV3.errorCode());
        // The current producer recovering with its epoch gets the next one.
        InitProducerIdResponseData recovered = call(request("payments", second.producerId(), (short) 1, version));
        assertEquals(Errors.NONE.code(), recovered.errorCode());
        assertEquals(2, recovered.producerEpoch());
    }

    @Test
    void refusalsAreKafkas() throws Exception {
        short version = handler.latestVersion();
        assertEquals(
                Errors.INVALID_REQUEST.code(),
                call(request(null, 5, (short) -1, version)).errorCode());
        assertEquals(
                Errors.INVALID_REQUEST.code(),
                call(request("", -1, (short) -1, version)).errorCode());
        InitProducerIdRequestData tooLong = new InitProducerIdRequestData()
                .setTransactionalId("payments")
                .setTransactionTimeoutMs(900_001)
                .setProducerId(-1)
                .setProducerEpoch((short) -1);
        assertEquals(
                Errors.INVALID_TRANSACTION_TIMEOUT.code(),
                call(parse(tooLong, version)).errorCode());
        InitProducerIdResponseData beforeTheTopic = call(request("no-topic-yet", -1, (short) -1, version));
        assertEquals(Errors.NOT_COORDINATOR.code(), beforeTheTopic.errorCode(), "__transaction_state does not exist");
        assertEquals(-1, beforeTheTopic.producerId());
        assertEquals(-1, beforeTheTopic.producerEpoch());
    }

    // FindCoordinator creates __transaction_state; its partitions then load.
    private void awaitCoordinator(String transactionalId) throws Exception {
        assertEquals(
                Errors.NONE, plane.transactions.findCoordinator(transactionalId).get(30, TimeUnit.SECONDS));
        // Not a measurement: the bound only keeps a coordinator that never loads from hanging the build.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (plane.transactions.describeTransaction(transactionalId).errorCode()
                == Errors.COORDINATOR_LOAD_IN_PROGRESS.code()) {
            assertTrue(System.nanoTime() < deadline, "the partitions of __transaction_state load");
            Thread.sleep(10);
        }
    }

    private InitProducerIdResponseData call(InitProducerIdRequest request) throws Exception {
        return Requests.call(handler, request);
    }

    /** The request as read from its bytes: the client's builder refuses an empty transactional id a broker may get. */
    private static InitProducerIdRequest request(String transactionalId, long producerId, short epoch, short version) {
        return parse(
                new InitProducerIdRequestData()
                        .setTransactionalId(transactionalId)
                        .setTransactionTimeoutMs(60000)
                        .setProducerId(producerId)
                        .setProducerEpoch(epoch),
                version);
    }

    private static InitProducerIdRequest parse(InitProducerIdRequestData data, short version) {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer bytes = ByteBuffer.allocate(data.size(cache, version));
        data.write(new ByteBufferAccessor(bytes), cache, version);
        return InitProducerIdRequest.parse(new ByteBufferAccessor(bytes.flip()), version);
    }
}
