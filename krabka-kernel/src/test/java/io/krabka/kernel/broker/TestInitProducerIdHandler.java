package io.krabka.kernel.broker;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.protocol.ApiKeys;

import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;

/** A minimal InitProducerId handler for idempotent producers in the tests (the real one is another component's). */
final class TestInitProducerIdHandler implements ApiHandler {

    private final AtomicLong nextProducerId = new AtomicLong(1000);

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.INIT_PRODUCER_ID;
    }

    @Override
    public short latestVersion() {
        return 5;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        return CompletableFuture.completedFuture(Response.send(new InitProducerIdResponseData()
                .setProducerId(nextProducerId.getAndIncrement()).setProducerEpoch((short) 0)));
    }
}
