package io.krabka.kernel.controller;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopic;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicResult;
import org.apache.kafka.common.protocol.Errors;

import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataPublisher;
import io.krabka.kernel.metadata.PartitionRegistration;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.spi.common.Uuid;

/**
 * An in-memory controller for the tests that need what the single-node {@link QuorumController} cannot do (bump a
 * leader epoch) or that test a component alone: topics are created in memory, every partition led by
 * {@link #NODE_ID} at leader epoch 0, and each createTopics request (even one that creates nothing, so a test can
 * count the writes) and each change makes one new image, given to the publishers in registration order before the
 * write's future completes, as the {@link Controller} contract says.
 */
public final class TestController implements Controller {

    /** The one node: broker, controller and leader of every partition. */
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

    @Override
    public synchronized CompletableFuture<CreateTopicsResponseData> createTopics(CreateTopicsRequestData request) {
        CreateTopicsResponseData response = new CreateTopicsResponseData();
        Map<String, TopicImage> topics = new HashMap<>(image.topics());
        Map<String, Map<String, String>> configs = new HashMap<>(image.topicConfigs());
        for (CreatableTopic topic : request.topics()) {
            CreatableTopicResult result = new CreatableTopicResult().setName(topic.name());
            response.topics().add(result);
            if (topics.containsKey(topic.name())) {
                result.setErrorCode(Errors.TOPIC_ALREADY_EXISTS.code());
                continue;
            }
            int count = topic.numPartitions() == -1 ? 1 : topic.numPartitions();
            Map<Integer, PartitionRegistration> partitions = new HashMap<>();
            for (int p = 0; p < count; p++) {
                partitions.put(p, new PartitionRegistration(List.of(NODE_ID), List.of(NODE_ID), NODE_ID, 0, 0));
            }
            Uuid id = Uuid.randomUuid();
            result.setTopicId(new org.apache.kafka.common.Uuid(id.mostSignificantBits(), id.leastSignificantBits()))
                    .setNumPartitions(count);
            if (!request.validateOnly()) {
                Map<String, String> topicConfigs = new HashMap<>();
                topic.configs().forEach(config -> topicConfigs.put(config.name(), config.value()));
                topics.put(topic.name(), TopicImage.of(topic.name(), id, partitions));
                configs.put(topic.name(), topicConfigs);
            }
        }
        update(current -> new MetadataImage(current.offset() + 1, current.features(), topics, configs,
                current.brokerConfigs(), current.nextProducerId()));
        return CompletableFuture.completedFuture(response);
    }

    /** Creates a topic with these partitions and configs, and returns it. */
    public TopicImage createTopic(String name, int partitions, Map<String, String> configs) {
        CreatableTopic topic = new CreatableTopic().setName(name).setNumPartitions(partitions)
                .setReplicationFactor((short) 1);
        configs.forEach((key, value) -> topic.configs().add(
                new CreateTopicsRequestData.CreatableTopicConfig().setName(key).setValue(value)));
        CreateTopicsRequestData request = new CreateTopicsRequestData();
        request.topics().add(topic);
        createTopics(request).join();
        return image().topic(name).orElseThrow();
    }

    /** Deletes a topic: the next image lacks it and its configs. */
    public synchronized void deleteTopic(String name) {
        update(current -> {
            Map<String, TopicImage> topics = new HashMap<>(current.topics());
            topics.remove(name);
            Map<String, Map<String, String>> configs = new HashMap<>(current.topicConfigs());
            configs.remove(name);
            return new MetadataImage(current.offset() + 1, current.features(), topics, configs,
                    current.brokerConfigs(), current.nextProducerId());
        });
    }

    /** A new leader epoch for every partition of the topic, as a leader change would give. */
    public synchronized void bumpLeaderEpoch(String name) {
        update(current -> {
            TopicImage topic = current.topic(name).orElseThrow();
            Map<Integer, PartitionRegistration> partitions = new TreeMap<>();
            topic.partitions().forEach((index, p) -> partitions.put(index, new PartitionRegistration(p.replicas(),
                    p.isr(), p.leader(), p.leaderEpoch() + 1, p.partitionEpoch() + 1)));
            Map<String, TopicImage> topics = new HashMap<>(current.topics());
            topics.put(name, TopicImage.of(name, topic.id(), partitions));
            return new MetadataImage(current.offset() + 1, current.features(), topics, current.topicConfigs(),
                    current.brokerConfigs(), current.nextProducerId());
        });
    }

    private void update(UnaryOperator<MetadataImage> change) {
        MetadataImage previous = image;
        image = change.apply(previous);
        for (MetadataPublisher publisher : publishers) {
            publisher.onMetadataUpdate(previous, image);
        }
    }
}
