package io.krabka.kernel.group;

import io.krabka.kernel.coordinator.CoordinatorLogWriter.TransactionalProducer;
import io.krabka.kernel.log.TransactionResult;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.protocol.Errors;

/**
 * A {@link CoordinatorWriter} that keeps what it is given (each record at the offset of its place in the list), or
 * fails with an error the test sets.
 */
final class RecordingWriter implements CoordinatorWriter {

    final List<CoordinatorRecord> records = new ArrayList<>();
    Errors failWith = Errors.NONE;

    @Override
    public long append(String groupId, List<CoordinatorRecord> batch, TransactionalProducer producer) {
        if (failWith != Errors.NONE) {
            throw failWith.exception();
        }
        long firstOffset = records.size();
        records.addAll(batch);
        return firstOffset;
    }

    @Override
    public void appendMarker(
            int partition,
            long producerId,
            short producerEpoch,
            TransactionResult result,
            int coordinatorEpoch,
            short transactionVersion) {
        if (failWith != Errors.NONE) {
            throw failWith.exception();
        }
    }

    <T extends CoordinatorRecord> List<T> written(Class<T> type) {
        return records.stream().filter(type::isInstance).map(type::cast).toList();
    }
}
