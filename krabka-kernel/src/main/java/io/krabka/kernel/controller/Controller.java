package io.krabka.kernel.controller;

import java.util.concurrent.CompletableFuture;

import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataPublisher;

import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsResponseData;

/**
 * The controller of a single-node cluster (Kafka's {@code QuorumController}): the one writer of the metadata log.
 * Each write appends Kafka's metadata records to {@code __cluster_metadata-0}, applies them and publishes the new
 * image; its future completes after every publisher has taken that image.
 */
public interface Controller {

    /** The image of the last committed write. */
    MetadataImage image();

    /** Adds a publisher; it is first called with the current image. */
    void register(MetadataPublisher publisher);

    /**
     * Creates topics as a CreateTopics request asks (validate-only included): one result per topic, with Kafka's
     * error codes and messages for a bad name, an existing topic, a bad count or config.
     */
    CompletableFuture<CreateTopicsResponseData> createTopics(CreateTopicsRequestData request);
}
