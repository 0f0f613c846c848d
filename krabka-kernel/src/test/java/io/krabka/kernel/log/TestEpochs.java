package io.krabka.kernel.log;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/** The epoch assignments recovery makes, in order, standing in for the leader epoch cache. */
final class TestEpochs implements EpochAssigner {

    /** One assignment. */
    record Assignment(int epoch, long startOffset) {}

    final List<Assignment> assignments = new ArrayList<>();

    @Override
    public OptionalInt latestEpoch() {
        return assignments.isEmpty()
                ? OptionalInt.empty()
                : OptionalInt.of(assignments.getLast().epoch());
    }

    @Override
    public void assign(int epoch, long startOffset) {
        assignments.add(new Assignment(epoch, startOffset));
    }
}
