package io.krabka.kernel.broker;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.MetadataRequest;

import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;

/**
 * A minimal Metadata handler for the tests with kafka-clients' producer and consumer (the real one is another
 * component's): this node, the topics asked for (or all) with their ids, partitions, leader and epoch.
 */
final class TestMetadataHandler implements ApiHandler {

    private final Supplier<MetadataImage> metadata;
    private final Supplier<InetSocketAddress> address;
    private final int nodeId;
    private final String clusterId;

    TestMetadataHandler(Supplier<MetadataImage> metadata, Supplier<InetSocketAddress> address, int nodeId,
            String clusterId) {
        this.metadata = metadata;
        this.address = address;
        this.nodeId = nodeId;
        this.clusterId = clusterId;
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.METADATA;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        MetadataRequestData data = ((MetadataRequest) request.body()).data();
        MetadataImage image = metadata.get();
        MetadataResponseData response = new MetadataResponseData().setClusterId(clusterId).setControllerId(nodeId);
        response.brokers().add(new MetadataResponseData.MetadataResponseBroker().setNodeId(nodeId)
                .setHost(address.get().getHostString()).setPort(address.get().getPort()));
        List<String> names = data.topics() == null ? List.copyOf(image.topics().keySet())
                : data.topics().stream().map(t -> t.name() != null ? t.name()
                        : image.topic(WireIds.fromWire(t.topicId())).map(TopicImage::name).orElse("")).toList();
        for (String name : names) {
            MetadataResponseData.MetadataResponseTopic topic = new MetadataResponseData.MetadataResponseTopic()
                    .setName(name).setIsInternal(Topic.isInternal(name));
            image.topic(name).ifPresentOrElse(t -> {
                topic.setTopicId(WireIds.toWire(t.id()));
                t.partitions().forEach((index, p) -> topic.partitions().add(
                        new MetadataResponseData.MetadataResponsePartition().setPartitionIndex(index)
                                .setLeaderId(p.leader()).setLeaderEpoch(p.leaderEpoch()).setReplicaNodes(p.replicas())
                                .setIsrNodes(p.isr())));
            }, () -> topic.setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code()));
            response.topics().add(topic);
        }
        return CompletableFuture.completedFuture(Response.send(response));
    }
}
