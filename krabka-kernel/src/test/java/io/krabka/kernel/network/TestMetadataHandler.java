package io.krabka.kernel.network;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.TopicImage;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataRequestData.MetadataRequestTopic;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseBroker;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponsePartition;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.MetadataRequest;

/**
 * For tests only, until the broker's own Metadata handler is merged: this node and the topics of a metadata image,
 * enough for kafka-clients' AdminClient and KafkaConsumer to reach the group coordinator.
 */
final class TestMetadataHandler implements ApiHandler {

    private final Supplier<MetadataImage> metadata;
    private final Supplier<InetSocketAddress> endpoint;

    TestMetadataHandler(Supplier<MetadataImage> metadata, Supplier<InetSocketAddress> endpoint) {
        this.metadata = metadata;
        this.endpoint = endpoint;
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.METADATA;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        MetadataRequestData data = ((MetadataRequest) request.body()).data();
        MetadataImage image = metadata.get();
        InetSocketAddress address = endpoint.get();
        MetadataResponseData response = new MetadataResponseData().setClusterId(Servers.CLUSTER_ID)
                .setControllerId(Servers.NODE_ID);
        response.brokers().add(new MetadataResponseBroker().setNodeId(Servers.NODE_ID)
                .setHost(address.getHostString()).setPort(address.getPort()));
        List<Optional<TopicImage>> topics = new ArrayList<>();
        if (data.topics() == null) {
            image.topics().values().forEach(topic -> topics.add(Optional.of(topic)));
        } else {
            for (MetadataRequestTopic asked : data.topics()) {
                Optional<TopicImage> topic = asked.name() != null ? image.topic(asked.name())
                        : image.topic(new io.krabka.spi.common.Uuid(asked.topicId().getMostSignificantBits(),
                                asked.topicId().getLeastSignificantBits()));
                if (topic.isEmpty()) {
                    response.topics().add(new MetadataResponseTopic().setName(asked.name())
                            .setTopicId(asked.topicId()).setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code()));
                }
                topics.add(topic);
            }
        }
        topics.stream().flatMap(Optional::stream).forEach(topic -> response.topics().add(topic(topic)));
        return CompletableFuture.completedFuture(Response.send(response));
    }

    private static MetadataResponseTopic topic(TopicImage topic) {
        MetadataResponseTopic response = new MetadataResponseTopic().setName(topic.name())
                .setTopicId(new Uuid(topic.id().mostSignificantBits(), topic.id().leastSignificantBits()))
                .setIsInternal(topic.name().startsWith("__"));
        topic.partitions().forEach((index, registration) -> response.partitions().add(
                new MetadataResponsePartition().setPartitionIndex(index).setLeaderId(registration.leader())
                        .setLeaderEpoch(registration.leaderEpoch()).setReplicaNodes(registration.replicas())
                        .setIsrNodes(registration.isr())));
        return response;
    }
}
