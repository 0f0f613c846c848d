package io.krabka.spi.storage;

import static io.krabka.spi.storage.RemoteLogSegmentState.COPY_SEGMENT_FINISHED;
import static io.krabka.spi.storage.RemoteLogSegmentState.COPY_SEGMENT_STARTED;
import static io.krabka.spi.storage.RemoteLogSegmentState.DELETE_SEGMENT_FINISHED;
import static io.krabka.spi.storage.RemoteLogSegmentState.DELETE_SEGMENT_STARTED;
import static io.krabka.spi.storage.RemotePartitionDeleteState.DELETE_PARTITION_FINISHED;
import static io.krabka.spi.storage.RemotePartitionDeleteState.DELETE_PARTITION_MARKED;
import static io.krabka.spi.storage.RemotePartitionDeleteState.DELETE_PARTITION_STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StateTransitionTest {

    @Test
    void segmentStatesFollowKafkasLifecycleExactly() {
        Set<String> legal = Set.of(
                "null>COPY_SEGMENT_STARTED",
                "COPY_SEGMENT_STARTED>COPY_SEGMENT_STARTED",
                "COPY_SEGMENT_STARTED>COPY_SEGMENT_FINISHED",
                "COPY_SEGMENT_STARTED>DELETE_SEGMENT_STARTED",
                "COPY_SEGMENT_FINISHED>COPY_SEGMENT_FINISHED",
                "COPY_SEGMENT_FINISHED>DELETE_SEGMENT_STARTED",
                "DELETE_SEGMENT_STARTED>DELETE_SEGMENT_STARTED",
                "DELETE_SEGMENT_STARTED>DELETE_SEGMENT_FINISHED",
                "DELETE_SEGMENT_FINISHED>DELETE_SEGMENT_FINISHED");
        int checked = 0;
        for (RemoteLogSegmentState source : withNull(RemoteLogSegmentState.values())) {
            for (RemoteLogSegmentState target : RemoteLogSegmentState.values()) {
                boolean expected = legal.contains(source + ">" + target);
                assertEquals(
                        expected, RemoteLogSegmentState.isValidTransition(source, target), source + " -> " + target);
                if (source != null && !expected) {
                    assertThrows(InvalidStateTransitionException.class, () -> source.checkTransitionTo(target));
                }
                checked++;
            }
        }
        assertEquals(20, checked);
    }

    @Test
    void partitionDeleteStatesFollowKafkasLifecycleExactly() {
        Set<String> legal = Set.of(
                "null>DELETE_PARTITION_MARKED",
                "DELETE_PARTITION_MARKED>DELETE_PARTITION_MARKED",
                "DELETE_PARTITION_MARKED>DELETE_PARTITION_STARTED",
                "DELETE_PARTITION_STARTED>DELETE_PARTITION_STARTED",
                "DELETE_PARTITION_STARTED>DELETE_PARTITION_FINISHED",
                "DELETE_PARTITION_FINISHED>DELETE_PARTITION_FINISHED");
        for (RemotePartitionDeleteState source : withNull(RemotePartitionDeleteState.values())) {
            for (RemotePartitionDeleteState target : RemotePartitionDeleteState.values()) {
                boolean expected = legal.contains(source + ">" + target);
                assertEquals(
                        expected,
                        RemotePartitionDeleteState.isValidTransition(source, target),
                        source + " -> " + target);
                if (source != null && !expected) {
                    assertThrows(InvalidStateTransitionException.class, () -> source.checkTransitionTo(target));
                }
            }
        }
    }

    @Test
    void idsAreKafkas() {
        assertEquals(0, COPY_SEGMENT_STARTED.id());
        assertEquals(1, COPY_SEGMENT_FINISHED.id());
        assertEquals(2, DELETE_SEGMENT_STARTED.id());
        assertEquals(3, DELETE_SEGMENT_FINISHED.id());
        assertEquals(0, DELETE_PARTITION_MARKED.id());
        assertEquals(1, DELETE_PARTITION_STARTED.id());
        assertEquals(2, DELETE_PARTITION_FINISHED.id());
        for (RemoteLogSegmentState state : EnumSet.allOf(RemoteLogSegmentState.class)) {
            assertEquals(state, RemoteLogSegmentState.forId(state.id()));
        }
        assertThrows(IllegalArgumentException.class, () -> RemoteLogSegmentState.forId((byte) 4));
        assertThrows(IllegalArgumentException.class, () -> RemotePartitionDeleteState.forId((byte) 3));
    }

    private static <T> List<T> withNull(T[] values) {
        List<T> list = new ArrayList<>();
        list.add(null);
        list.addAll(List.of(values));
        return list;
    }
}
