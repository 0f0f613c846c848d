package io.krabka.kernel.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.krabka.kernel.controller.Controllers;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.requests.InitProducerIdRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** InitProducerId: ids from the controller's blocks, unique across concurrent callers and restarts; Kafka's refusals. */
class InitProducerIdHandlerTest {

    @TempDir
    Path dir;

    @Test
    void idempotentProducersGetUniqueIdsAtEpochZero() throws Exception {
        try (Controllers controllers = Controllers.formatAndStart(dir, Map.of())) {
            InitProducerIdHandler handler =
                    new InitProducerIdHandler(new ProducerIdManager(controllers.controller(), 1));
            for (short version = ApiKeys.INIT_PRODUCER_ID.oldestVersion();
                    version <= handler.latestVersion();
                    version++) {
                InitProducerIdResponseData response = Requests.call(handler, request(null, -1, (short) -1, version));
                assertEquals(Errors.NONE.code(), response.errorCode());
                assertEquals(version, response.producerId(), "ids count up from 0");
                assertEquals(0, response.producerEpoch());
            }
            ProducerIdManager manager = new ProducerIdManager(controllers.controller(), 1);
            List<CompletableFuture<Long>> ids = new ArrayList<>();
            for (int i = 0; i < 2500; i++) {
                ids.add(manager.generateProducerId());
            }
            Set<Long> unique = new HashSet<>();
            for (CompletableFuture<Long> id : ids) {
                unique.add(id.get());
            }
            assertEquals(2500, unique.size());
            assertEquals(
                    1000,
                    unique.stream().mapToLong(Long::longValue).min().orElseThrow(),
                    "a second manager starts at the next block");
            long before = controllers.controller().image().nextProducerId();
            ProducerIdManager afterRestart = new ProducerIdManager(controllers.restart(), 1);
            assertEquals(before, afterRestart.generateProducerId().get());
        }
    }

    @Test
    void refusalsAreKafkas() throws Exception {
        try (Controllers controllers = Controllers.formatAndStart(dir, Map.of())) {
            InitProducerIdHandler handler =
                    new InitProducerIdHandler(new ProducerIdManager(controllers.controller(), 1));
            short version = handler.latestVersion();
            assertEquals(
                    Errors.INVALID_REQUEST.code(),
                    ((InitProducerIdResponseData) Requests.call(handler, request(null, 5, (short) -1, version)))
                            .errorCode());
            assertEquals(
                    Errors.INVALID_REQUEST.code(),
                    ((InitProducerIdResponseData) Requests.call(handler, request("", -1, (short) -1, version)))
                            .errorCode());
            InitProducerIdResponseData transactional = Requests.call(handler, request("txn", -1, (short) -1, version));
            assertEquals(Errors.COORDINATOR_NOT_AVAILABLE.code(), transactional.errorCode());
            assertEquals(-1, transactional.producerId());
            assertEquals(-1, transactional.producerEpoch());
        }
    }

    /** The request as read from its bytes: the client's builder refuses an empty transactional id a broker may get. */
    private static InitProducerIdRequest request(String transactionalId, long producerId, short epoch, short version) {
        InitProducerIdRequestData data = new InitProducerIdRequestData()
                .setTransactionalId(transactionalId)
                .setTransactionTimeoutMs(60000)
                .setProducerId(producerId)
                .setProducerEpoch(epoch);
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer bytes = ByteBuffer.allocate(data.size(cache, version));
        data.write(new ByteBufferAccessor(bytes), cache, version);
        return InitProducerIdRequest.parse(new ByteBufferAccessor(bytes.flip()), version);
    }
}
