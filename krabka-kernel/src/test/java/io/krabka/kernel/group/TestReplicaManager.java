package io.krabka.kernel.group;

import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataPublisher;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * For tests only: what the replica manager does for the coordinator, creating the log of every partition the image
 * has (with the topic's configs over the defaults) before later publishers see the image.
 */
public final class TestReplicaManager implements MetadataPublisher {

    private final LogManager logManager;

    /** Creates logs in {@code logManager}. */
    public TestReplicaManager(LogManager logManager) {
        this.logManager = Objects.requireNonNull(logManager, "logManager");
    }

    @Override
    public String name() {
        return "TestReplicaManager";
    }

    @Override
    public void onMetadataUpdate(MetadataImage previous, MetadataImage current) {
        for (TopicImage topic : current.topics().values()) {
            LogConfig config = LogConfig.fromProps(Map.of(), current.topicConfig(topic.name()));
            for (int partition : topic.partitions().keySet()) {
                try {
                    logManager.getOrCreateLog(
                            new TopicPartition(topic.name(), partition), Optional.of(topic.id()), config);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
    }
}
