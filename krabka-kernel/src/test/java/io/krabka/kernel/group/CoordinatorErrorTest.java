package io.krabka.kernel.group;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.krabka.kernel.errors.KernelErrors;
import io.krabka.kernel.log.KafkaStorageException;
import java.io.IOException;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;

/** A failed write of the coordinator's log answers the group client as Kafka's group coordinator answers it. */
class CoordinatorErrorTest {

    @Test
    void aFailedDiskOrALostPartitionMeansAnotherCoordinatorAndTheRestPassOrBecomeUnknown() {
        assertEquals(
                Errors.NOT_COORDINATOR,
                OffsetsTopicWriter.coordinatorError(KernelErrors.forException(new IOException("No space left"))));
        assertEquals(
                Errors.NOT_COORDINATOR,
                OffsetsTopicWriter.coordinatorError(
                        KernelErrors.forException(new KafkaStorageException("the directory is offline"))));
        assertEquals(Errors.NOT_COORDINATOR, OffsetsTopicWriter.coordinatorError(Errors.NOT_LEADER_OR_FOLLOWER));
        assertEquals(
                Errors.COORDINATOR_NOT_AVAILABLE,
                OffsetsTopicWriter.coordinatorError(Errors.UNKNOWN_TOPIC_OR_PARTITION));
        assertEquals(Errors.COORDINATOR_NOT_AVAILABLE, OffsetsTopicWriter.coordinatorError(Errors.NOT_ENOUGH_REPLICAS));
        assertEquals(Errors.UNKNOWN_SERVER_ERROR, OffsetsTopicWriter.coordinatorError(Errors.RECORD_LIST_TOO_LARGE));
        assertEquals(Errors.INVALID_RECORD, OffsetsTopicWriter.coordinatorError(Errors.INVALID_RECORD));
    }
}
