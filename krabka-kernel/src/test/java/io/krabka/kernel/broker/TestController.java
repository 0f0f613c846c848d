package io.krabka.kernel.broker;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.protocol.Errors;

import io.krabka.kernel.controller.Controller;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataPublisher;
import io.krabka.kernel.metadata.PartitionRegistration;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.spi.common.Uuid;

/**
 * An in-memory controller for the data-plane tests (the real one writes the metadata log): applies CreateTopics,
 * deletions, config changes and leader epoch bumps to an image and calls the publishers in order.
 */
final class TestController implements Controller {

    private final int nodeId;
    private final List<MetadataPublisher> publishers = new ArrayList<>();
    private MetadataImage image;

    TestController(int nodeId, MetadataImage image) {
        this.nodeId = nodeId;
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

    @Override
    public synchronized CompletableFuture<CreateTopicsResponseData> createTopics(CreateTopicsRequestData request) {
        CreateTopicsResponseData response = new CreateTopicsResponseData();
        for (CreateTopicsRequestData.CreatableTopic topic : request.topics()) {
            CreateTopicsResponseData.CreatableTopicResult result = new CreateTopicsResponseData.CreatableTopicResult()
                    .setName(topic.name());
            response.topics().add(result);
            if (image.topics().containsKey(topic.name())) {
                result.setErrorCode(Errors.TOPIC_ALREADY_EXISTS.code());
                continue;
            }
            int count = topic.numPartitions() == -1 ? 1 : topic.numPartitions();
            Map<Integer, PartitionRegistration> partitions = new HashMap<>();
            for (int p = 0; p < count; p++) {
                partitions.put(p, new PartitionRegistration(List.of(nodeId), List.of(nodeId), nodeId, 0, 0));
            }
            Uuid id = Uuid.randomUuid();
            Map<String, String> configs = new HashMap<>();
            topic.configs().forEach(config -> configs.put(config.name(), config.value()));
            result.setTopicId(WireIds.toWire(id)).setNumPartitions(count);
            if (!request.validateOnly()) {
                update(current -> withTopic(current, TopicImage.of(topic.name(), id, partitions), configs));
            }
        }
        return CompletableFuture.completedFuture(response);
    }

    /** Creates a topic with these partitions and configs. */
    TopicImage createTopic(String name, int partitions, Map<String, String> configs) {
        CreateTopicsRequestData request = new CreateTopicsRequestData();
        CreateTopicsRequestData.CreatableTopic topic = new CreateTopicsRequestData.CreatableTopic().setName(name)
                .setNumPartitions(partitions).setReplicationFactor((short) 1);
        configs.forEach((key, value) -> topic.configs().add(
                new CreateTopicsRequestData.CreatableTopicConfig().setName(key).setValue(value)));
        request.topics().add(topic);
        createTopics(request).join();
        return image().topic(name).orElseThrow();
    }

    synchronized void deleteTopic(String name) {
        update(current -> {
            Map<String, TopicImage> topics = new HashMap<>(current.topics());
            topics.remove(name);
            Map<String, Map<String, String>> configs = new HashMap<>(current.topicConfigs());
            configs.remove(name);
            return new MetadataImage(current.offset() + 1, current.features(), topics, configs,
                    current.brokerConfigs(), current.nextProducerId());
        });
    }

    synchronized void setTopicConfig(String name, Map<String, String> values) {
        update(current -> {
            Map<String, Map<String, String>> configs = new HashMap<>(current.topicConfigs());
            configs.put(name, values);
            return new MetadataImage(current.offset() + 1, current.features(), current.topics(), configs,
                    current.brokerConfigs(), current.nextProducerId());
        });
    }

    /** A new leader epoch for every partition of the topic, as a leader change would give. */
    synchronized void bumpLeaderEpoch(String name) {
        update(current -> {
            TopicImage topic = current.topic(name).orElseThrow();
            Map<Integer, PartitionRegistration> partitions = new TreeMap<>();
            topic.partitions().forEach((index, p) -> partitions.put(index, new PartitionRegistration(p.replicas(),
                    p.isr(), p.leader(), p.leaderEpoch() + 1, p.partitionEpoch() + 1)));
            return withTopic(current, TopicImage.of(name, topic.id(), partitions), current.topicConfig(name));
        });
    }

    private static MetadataImage withTopic(MetadataImage current, TopicImage topic, Map<String, String> configs) {
        Map<String, TopicImage> topics = new HashMap<>(current.topics());
        topics.put(topic.name(), topic);
        Map<String, Map<String, String>> topicConfigs = new HashMap<>(current.topicConfigs());
        topicConfigs.put(topic.name(), configs);
        return new MetadataImage(current.offset() + 1, current.features(), topics, topicConfigs,
                current.brokerConfigs(), current.nextProducerId());
    }

    private void update(UnaryOperator<MetadataImage> change) {
        MetadataImage previous = image;
        image = change.apply(previous);
        for (MetadataPublisher publisher : publishers) {
            publisher.onMetadataUpdate(previous, image);
        }
    }
}
