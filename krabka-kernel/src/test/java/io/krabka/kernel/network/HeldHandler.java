package io.krabka.kernel.network;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.protocol.ApiKeys;

/** A handler whose responses the test gives: each request waits in a queue with the future to complete. */
final class HeldHandler implements ApiHandler {

    /** A request and the future its response completes. */
    record Held(Request request, CompletableFuture<Response> response) {}

    private final ApiKeys apiKey;
    private final BlockingQueue<Held> held = new LinkedBlockingQueue<>();
    private final List<Integer> handledCorrelationIds = new CopyOnWriteArrayList<>();

    HeldHandler(ApiKeys apiKey) {
        this.apiKey = apiKey;
    }

    @Override
    public ApiKeys apiKey() {
        return apiKey;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        CompletableFuture<Response> response = new CompletableFuture<>();
        handledCorrelationIds.add(request.header().correlationId());
        held.add(new Held(request, response));
        return response;
    }

    /** The next request handled; fails if none comes. */
    Held next() throws InterruptedException {
        Held next = held.poll(30, TimeUnit.SECONDS);
        if (next == null) {
            throw new AssertionError("no " + apiKey + " request reached the handler");
        }
        return next;
    }

    /** The correlation ids of the requests handled, in the order handle was called. */
    List<Integer> handled() {
        return List.copyOf(handledCorrelationIds);
    }
}
