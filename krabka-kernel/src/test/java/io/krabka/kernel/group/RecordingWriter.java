package io.krabka.kernel.group;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.protocol.Errors;

/** A {@link CoordinatorWriter} that keeps what it is given, or fails with an error the test sets. */
final class RecordingWriter implements CoordinatorWriter {

    final List<CoordinatorRecord> records = new ArrayList<>();
    Errors failWith = Errors.NONE;

    @Override
    public void append(String groupId, List<CoordinatorRecord> batch) {
        if (failWith != Errors.NONE) {
            throw failWith.exception();
        }
        records.addAll(batch);
    }

    <T extends CoordinatorRecord> List<T> written(Class<T> type) {
        return records.stream().filter(type::isInstance).map(type::cast).toList();
    }
}
