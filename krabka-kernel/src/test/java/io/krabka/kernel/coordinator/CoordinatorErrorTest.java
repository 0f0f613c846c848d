package io.krabka.kernel.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.krabka.kernel.errors.KernelErrors;
import io.krabka.kernel.log.KafkaStorageException;
import java.io.IOException;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;

/** A failed write of the coordinator's log answers a coordinator's client as Kafka's coordinators answer it. */
class CoordinatorErrorTest {

    @Test
    void aFailedDiskOrALostPartitionMeansAnotherCoordinatorAndTheRestPassOrBecomeUnknown() {
        assertEquals(
                Errors.NOT_COORDINATOR,
                CoordinatorLogWriter.coordinatorError(KernelErrors.forException(new IOException("No space left"))));
        assertEquals(
                Errors.NOT_COORDINATOR,
                CoordinatorLogWriter.coordinatorError(
                        KernelErrors.forException(new KafkaStorageException("the directory is offline"))));
        assertEquals(Errors.NOT_COORDINATOR, CoordinatorLogWriter.coordinatorError(Errors.NOT_LEADER_OR_FOLLOWER));
        assertEquals(
                Errors.COORDINATOR_NOT_AVAILABLE,
                CoordinatorLogWriter.coordinatorError(Errors.UNKNOWN_TOPIC_OR_PARTITION));
        assertEquals(
                Errors.COORDINATOR_NOT_AVAILABLE, CoordinatorLogWriter.coordinatorError(Errors.NOT_ENOUGH_REPLICAS));
        assertEquals(Errors.UNKNOWN_SERVER_ERROR, CoordinatorLogWriter.coordinatorError(Errors.RECORD_LIST_TOO_LARGE));
        assertEquals(Errors.INVALID_RECORD, CoordinatorLogWriter.coordinatorError(Errors.INVALID_RECORD));
    }
}
