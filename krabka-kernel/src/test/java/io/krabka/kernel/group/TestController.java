package io.krabka.kernel.group;

import io.krabka.kernel.controller.Controller;
import io.krabka.kernel.controller.ProducerIdsBlock;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataPublisher;
import io.krabka.kernel.metadata.PartitionRegistration;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.spi.common.Uuid;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.AlterConfigsResponseData;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsResponseData.CreatePartitionsTopicResult;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopic;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicResult;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData;
import org.apache.kafka.common.protocol.Errors;

/**
 * An in-memory controller for the coordinator's unit tests, which start coordinators on a given image (the tests
 * over TCP use the real QuorumController): topics are created in memory, every partition led by {@link #NODE_ID} at
 * leader epoch 0, and each createTopics request makes one new image, given to the publishers in registration order
 * before the write's future completes, as the {@link Controller} contract says.
 */
final class TestController implements Controller {

    /** The one node: broker, controller and leader of every partition. */
    static final int NODE_ID = 1;

    private final List<MetadataPublisher> publishers = new CopyOnWriteArrayList<>();
    private MetadataImage image;

    /** A controller whose metadata starts as {@code image} (a restarted broker's). */
    TestController(MetadataImage image) {
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
        MetadataImage previous = image;
        image = new MetadataImage(
                previous.offset() + 1,
                previous.features(),
                topics,
                configs,
                previous.brokerConfigs(),
                previous.perBrokerConfigs(),
                previous.groupConfigs(),
                previous.nextProducerId());
        for (MetadataPublisher publisher : publishers) {
            publisher.onMetadataUpdate(previous, image);
        }
        return CompletableFuture.completedFuture(response);
    }

    // The group coordinator uses only image, register and createTopics.
    @Override
    public CompletableFuture<DeleteTopicsResponseData> deleteTopics(DeleteTopicsRequestData request) {
        return unsupported("deleteTopics");
    }

    @Override
    public CompletableFuture<List<CreatePartitionsTopicResult>> createPartitions(CreatePartitionsRequestData request) {
        return unsupported("createPartitions");
    }

    @Override
    public CompletableFuture<IncrementalAlterConfigsResponseData> incrementalAlterConfigs(
            IncrementalAlterConfigsRequestData request) {
        return unsupported("incrementalAlterConfigs");
    }

    @Override
    public CompletableFuture<AlterConfigsResponseData> legacyAlterConfigs(AlterConfigsRequestData request) {
        return unsupported("legacyAlterConfigs");
    }

    @Override
    public CompletableFuture<List<org.apache.kafka.server.authorizer.AclCreateResult>> createAcls(
            List<org.apache.kafka.common.acl.AclBinding> acls) {
        return unsupported("createAcls");
    }

    @Override
    public CompletableFuture<List<org.apache.kafka.server.authorizer.AclDeleteResult>> deleteAcls(
            List<org.apache.kafka.common.acl.AclBindingFilter> filters) {
        return unsupported("deleteAcls");
    }

    @Override
    public CompletableFuture<org.apache.kafka.common.message.AlterUserScramCredentialsResponseData>
            alterUserScramCredentials(org.apache.kafka.common.message.AlterUserScramCredentialsRequestData request) {
        return unsupported("alterUserScramCredentials");
    }

    @Override
    public CompletableFuture<ProducerIdsBlock> allocateProducerIds(int brokerId) {
        return unsupported("allocateProducerIds");
    }

    private static <T> CompletableFuture<T> unsupported(String operation) {
        return CompletableFuture.failedFuture(
                new UnsupportedOperationException("the test controller does not implement " + operation));
    }
}
