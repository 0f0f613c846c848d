/**
 * A RemoteLogMetadataManager over the {@code __remote_log_metadata} topic, in Kafka's record format and
 * partitioning, so that Kafka's {@code TopicBasedRemoteLogMetadataManager} and this plugin read each other's
 * records.
 */
module io.krabka.plugin.rlmm.topic {
    requires io.krabka.spi;
    requires io.krabka.rlmm.cache;
    requires kafka.clients;

    provides io.krabka.spi.plugin.RemoteLogMetadataManagerProvider with
            io.krabka.plugin.rlmm.topic.TopicBasedRemoteLogMetadataManagerProvider;
}
