package io.krabka.kernel.transaction;

import io.krabka.kernel.controller.Controller;
import io.krabka.kernel.controller.ProducerIdsBlock;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Gives out producer ids from blocks the controller allocates (Kafka's {@code RPCProducerIdManager}): ids of the
 * current block one by one; when it is used up, the next block is asked for once, however many callers wait.
 * A block is recorded in the metadata log before any of its ids is given, so no id is ever given twice, even
 * across restarts (the ids of a block not used up are skipped). Thread-safe.
 */
public final class ProducerIdManager {

    private final Controller controller;
    private final int nodeId;
    private ProducerIdsBlock block;
    private long next;
    private CompletableFuture<Void> pending;

    /** A manager asking {@code controller} for blocks for broker {@code nodeId}. */
    public ProducerIdManager(Controller controller, int nodeId) {
        this.controller = Objects.requireNonNull(controller, "controller");
        this.nodeId = nodeId;
    }

    /** The next producer id; fails as the controller's allocation fails. */
    public synchronized CompletableFuture<Long> generateProducerId() {
        if (block != null && next < block.nextBlockFirstId()) {
            return CompletableFuture.completedFuture(next++);
        }
        if (pending == null || pending.isDone()) {
            pending = controller.allocateProducerIds(nodeId).thenAccept(this::install);
        }
        return pending.thenCompose(done -> generateProducerId());
    }

    private synchronized void install(ProducerIdsBlock newBlock) {
        block = newBlock;
        next = newBlock.firstProducerId();
    }
}
