package io.krabka.plugin.rlmm.topic;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import io.krabka.spi.storage.RemotePartitionDeleteState;
import io.krabka.spi.storage.RemoteStorageException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The manager's life cycle where no broker is needed: a start that fails. */
class TopicBasedRemoteLogMetadataManagerTest {

    @Test
    void aManagerWhoseStartFailedClosesQuietly(@TempDir Path dir) throws Exception {
        TopicBasedRemoteLogMetadataManager manager = new TopicBasedRemoteLogMetadataManager();
        // The clients refuse the security protocol as they are made: the start fails at once.
        manager.configure(Map.of(
                "tiered.storage.dir",
                dir.toString(),
                "remote.log.metadata.common.client.bootstrap.servers",
                "127.0.0.1:9",
                "remote.log.metadata.common.client.security.protocol",
                "NOPE",
                "broker.id",
                1));
        ExecutionException failed = assertThrows(
                ExecutionException.class,
                () -> manager.putRemotePartitionDeleteMetadata(new RemotePartitionDeleteMetadata(
                                new TopicIdPartition(Uuid.randomUuid(), "orders", 0),
                                RemotePartitionDeleteState.DELETE_PARTITION_MARKED,
                                0,
                                1))
                        .get(1, TimeUnit.MINUTES));
        assertInstanceOf(RemoteStorageException.class, failed.getCause());
        assertDoesNotThrow(manager::close);
    }
}
