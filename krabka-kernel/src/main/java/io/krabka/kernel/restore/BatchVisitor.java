package io.krabka.kernel.restore;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Receives each batch of a segment once it is verified, in order, so a later stage can copy it while the segment
 * is read once. Nothing is offered before its batch passed every check, but a later batch may still fail the scan:
 * a visitor that writes must write somewhere it can abandon.
 */
@FunctionalInterface
public interface BatchVisitor {

    /**
     * One verified batch.
     *
     * @param batch its position and header values
     * @param bytes the whole batch, read-only, from index 0 to its limit; valid only during the call, as the
     *              verifier reuses the memory for the next batch (copy what must outlive it)
     * @throws IOException if the visitor cannot take the batch; the scan stops with it
     */
    void visit(VerifiedBatch batch, ByteBuffer bytes) throws IOException;
}
