package io.krabka.kernel.group;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import io.krabka.kernel.controller.Controller;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataPublisher;
import io.krabka.kernel.metadata.PartitionRegistration;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.spi.common.Uuid;

import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopic;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicResult;
import org.apache.kafka.common.protocol.Errors;

/**
 * A controller for tests only (the real one is the controller's own work): topics are created in memory, every
 * partition led by {@link #NODE_ID} at leader epoch 0, and each new image goes to the publishers in registration
 * order before the write's future completes, as the {@link Controller} contract says.
 */
public final class TestController implements Controller {

    /** The one node. */
    public static final int NODE_ID = 1;

    private final List<MetadataPublisher> publishers = new CopyOnWriteArrayList<>();
    private MetadataImage image;

    /** A controller whose metadata starts as {@code image} (a restarted broker's). */
    public TestController(MetadataImage image) {
        this.image = image;
    }

    @Override
    public synchronized MetadataImage image() {
        return image;
    }

    @Override
    public synchronized void register(MetadataPublisher publisher) {
        publishers.add(publisher);
        publisher.onMetadataUpdate(MetadataImage.EMPTY, image);
    }

    /** Deletes a topic: the next image lacks it. */
    public synchronized void deleteTopic(String name) {
        Map<String, TopicImage> topics = new HashMap<>(image.topics());
        Map<String, Map<String, String>> configs = new HashMap<>(image.topicConfigs());
        topics.remove(name);
        configs.remove(name);
        publish(topics, configs);
    }

    @Override
    public synchronized CompletableFuture<CreateTopicsResponseData> createTopics(CreateTopicsRequestData request) {
        CreateTopicsResponseData response = new CreateTopicsResponseData();
        Map<String, TopicImage> topics = new HashMap<>(image.topics());
        Map<String, Map<String, String>> configs = new HashMap<>(image.topicConfigs());
        for (CreatableTopic topic : request.topics()) {
            CreatableTopicResult result = new CreatableTopicResult().setName(topic.name());
            if (topics.containsKey(topic.name())) {
                result.setErrorCode(Errors.TOPIC_ALREADY_EXISTS.code());
            } else {
                Map<Integer, PartitionRegistration> partitions = new HashMap<>();
                for (int p = 0; p < topic.numPartitions(); p++) {
                    partitions.put(p, new PartitionRegistration(List.of(NODE_ID), List.of(NODE_ID), NODE_ID, 0, 0));
                }
                TopicImage created = TopicImage.of(topic.name(), Uuid.randomUuid(), partitions);
                topics.put(topic.name(), created);
                Map<String, String> topicConfigs = new HashMap<>();
                topic.configs().forEach(c -> topicConfigs.put(c.name(), c.value()));
                configs.put(topic.name(), topicConfigs);
                result.setTopicId(new org.apache.kafka.common.Uuid(created.id().mostSignificantBits(),
                        created.id().leastSignificantBits())).setNumPartitions(topic.numPartitions());
            }
            response.topics().add(result);
        }
        publish(topics, configs);
        return CompletableFuture.completedFuture(response);
    }

    private void publish(Map<String, TopicImage> topics, Map<String, Map<String, String>> configs) {
        MetadataImage previous = image;
        image = new MetadataImage(previous.offset() + 1, previous.features(), topics, configs,
                previous.brokerConfigs(), previous.nextProducerId());
        for (MetadataPublisher publisher : publishers) {
            publisher.onMetadataUpdate(previous, image);
        }
    }
}
