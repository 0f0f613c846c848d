package io.krabka.kernel.broker;

import io.krabka.kernel.controller.Controller;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.kernel.metadata.WireUuids;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.spi.common.TopicPartition;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopic;
import org.apache.kafka.common.message.MetadataRequestData.MetadataRequestTopic;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseBroker;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponsePartition;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.resource.Resource;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Answers Metadata as Kafka's {@code KafkaApis.handleTopicMetadataRequest} does, every version: this broker (with
 * its advertised host and port) as the only broker and the controller, the cluster id, and the topics asked for (or
 * all) by name or, from v12, by id, with their ids from v10. A topic that does not exist is UNKNOWN_TOPIC_OR_PARTITION
 * (INVALID_TOPIC_EXCEPTION for an invalid name, UNKNOWN_TOPIC_ID for an unknown id), or, when the request and
 * {@code auto.create.topics.enable} allow it, is created with the broker's defaults and answered with
 * LEADER_NOT_AVAILABLE so the client asks again, as Kafka's auto topic creation answers. Internal topics are never
 * created here: their owners (the group coordinator) create them with their own settings. A partition whose log
 * directory went offline has no leader (LEADER_NOT_AVAILABLE, leader -1, this broker its offline replica), as
 * Kafka's controller answers once the broker reported the directory offline and no other replica can lead.
 *
 * <p>Authorized as Kafka's: only topics the principal may DESCRIBE are looked up; the others are answered
 * TOPIC_AUTHORIZATION_FAILED after the rest (by id when asked by id) or, in a list of all topics, left out. A topic to
 * auto-create needs CREATE on the cluster or on the topic (TOPIC_AUTHORIZATION_FAILED otherwise). The cluster's
 * authorized operations need DESCRIBE on it (0 otherwise).
 */
public final class MetadataHandler implements ApiHandler {

    /**
     * The handler's settings.
     *
     * @param autoCreateTopicsEnable {@code auto.create.topics.enable}
     */
    public record Config(boolean autoCreateTopicsEnable) {}

    private static final System.Logger LOG = System.getLogger(MetadataHandler.class.getName());

    private final AuthHelper auth;
    private final Function<String, BrokerIdentity> identity;
    private final Config config;
    private final Predicate<TopicPartition> offline;
    private final Controller controller;

    /**
     * A handler answering from {@code controller}'s image.
     *
     * @param identity who this broker is on a listener, by its name, read per request: its advertised port is known
     *                 once it listens
     */
    public MetadataHandler(
            AuthHelper auth, Function<String, BrokerIdentity> identity, Config config, Controller controller) {
        this(auth, identity, config, controller, partition -> false);
    }

    /**
     * A handler answering from {@code controller}'s metadata, the partitions {@code offline} says are in an
     * offline log directory without a leader.
     */
    public MetadataHandler(
            AuthHelper auth,
            Function<String, BrokerIdentity> identity,
            Config config,
            Controller controller,
            Predicate<TopicPartition> offline) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.identity = Objects.requireNonNull(identity, "identity");
        this.config = Objects.requireNonNull(config, "config");
        this.controller = Objects.requireNonNull(controller, "controller");
        this.offline = Objects.requireNonNull(offline, "offline");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.METADATA;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        MetadataRequest metadata = (MetadataRequest) request.body();
        short version = request.apiVersion();
        if (!metadata.isAllTopics()) {
            for (MetadataRequestTopic topic : metadata.data().topics()) {
                if (topic.name() == null && version < 12) {
                    throw new InvalidRequestException("Topic name can not be null for version " + version);
                } else if (!topic.topicId().equals(org.apache.kafka.common.Uuid.ZERO_UUID) && version < 12) {
                    throw new InvalidRequestException("Topic IDs are not supported in requests for version " + version);
                }
            }
        }
        MetadataImage image = controller.image();
        BrokerIdentity node = identity.apply(request.listenerName());
        MetadataResponseData response = new MetadataResponseData()
                .setThrottleTimeMs(0)
                .setClusterId(node.clusterId())
                .setControllerId(node.nodeId());
        response.brokers()
                .add(new MetadataResponseBroker()
                        .setNodeId(node.nodeId())
                        .setHost(node.host())
                        .setPort(node.port())
                        .setRack(node.rack().orElse(null)));
        boolean includeOperations = metadata.data().includeTopicAuthorizedOperations();

        boolean allTopics = metadata.isAllTopics();
        boolean byId = false;
        List<String> names = new ArrayList<>();
        if (metadata.isAllTopics()) {
            image.topics().keySet().stream().sorted().forEach(names::add);
        } else {
            Set<org.apache.kafka.common.Uuid> ids = new LinkedHashSet<>();
            metadata.topicIds().stream()
                    .filter(id -> !id.equals(org.apache.kafka.common.Uuid.ZERO_UUID))
                    .forEach(ids::add);
            if (!ids.isEmpty()) {
                byId = true;
                for (org.apache.kafka.common.Uuid id : ids) {
                    Optional<TopicImage> topic = image.topic(WireUuids.fromWire(id));
                    if (topic.isPresent()) {
                        if (!names.contains(topic.get().name())) {
                            names.add(topic.get().name());
                        }
                    } else {
                        response.topics()
                                .add(new MetadataResponseTopic()
                                        .setErrorCode(Errors.UNKNOWN_TOPIC_ID.code())
                                        .setName(null)
                                        .setTopicId(id)
                                        .setIsInternal(false));
                    }
                }
            } else {
                new LinkedHashSet<>(metadata.topics()).forEach(names::add);
            }
        }
        // Topics the principal may not DESCRIBE are not looked up, so their existence is not disclosed; a list of all
        // topics leaves them out without logging the denials.
        Predicate<String> describable = auth.filterByAuthorized(
                request, AclOperation.DESCRIBE, ResourceType.TOPIC, names, Function.identity(), true, !allTopics);
        List<String> authorized = new ArrayList<>(names.size());
        List<String> hidden = new ArrayList<>();
        for (String name : names) {
            (describable.test(name) ? authorized : hidden).add(name);
        }
        boolean autoCreate = config.autoCreateTopicsEnable() && metadata.data().allowAutoTopicCreation() && !allTopics;
        List<String> notCreatable = autoCreate ? notCreatable(request, image, authorized) : List.of();
        authorized.removeAll(notCreatable);
        List<String> toCreate = new ArrayList<>();
        for (String name : authorized) {
            Optional<TopicImage> topic = image.topic(name);
            MetadataResponseTopic answer;
            if (topic.isPresent()) {
                answer = describe(topic.get(), node.nodeId());
            } else {
                Errors error = missing(name, autoCreate);
                if (error == Errors.LEADER_NOT_AVAILABLE) {
                    toCreate.add(name);
                }
                answer = new MetadataResponseTopic()
                        .setErrorCode(error.code())
                        .setName(name)
                        .setTopicId(org.apache.kafka.common.Uuid.ZERO_UUID)
                        .setIsInternal(Topic.isInternal(name));
            }
            // Kafka reports them on every topic it looked up, found or not.
            if (includeOperations) {
                answer.setTopicAuthorizedOperations(auth.authorizedOperations(request, ResourceType.TOPIC, name));
            }
            response.topics().add(answer);
        }
        for (String name : notCreatable) {
            response.topics().add(refused(name, org.apache.kafka.common.Uuid.ZERO_UUID, Topic.isInternal(name)));
        }
        if (!allTopics) {
            for (String name : hidden) {
                // Topic ids are not secret: a topic asked for by id is refused by id, without its name.
                response.topics()
                        .add(
                                byId
                                        ? refused(
                                                null,
                                                WireUuids.toWire(image.topic(name)
                                                        .orElseThrow()
                                                        .id()),
                                                false)
                                        : refused(name, org.apache.kafka.common.Uuid.ZERO_UUID, false));
            }
        }
        if (version <= 10 && metadata.data().includeClusterAuthorizedOperations()) {
            response.setClusterAuthorizedOperations(
                    auth.authorizeCluster(request, AclOperation.DESCRIBE)
                            ? auth.authorizedOperations(request, ResourceType.CLUSTER, Resource.CLUSTER_NAME)
                            : 0);
        }
        if (!toCreate.isEmpty()) {
            CreateTopicsRequestData create = new CreateTopicsRequestData();
            toCreate.forEach(name -> create.topics()
                    .add(new CreatableTopic().setName(name).setNumPartitions(-1).setReplicationFactor((short) -1)));
            // As Kafka's auto topic creation: the answer does not wait; the client's next request sees the topic.
            controller.createTopics(create).whenComplete((created, failure) -> {
                if (failure != null) {
                    LOG.log(System.Logger.Level.WARNING, "Auto-creating " + toCreate + " failed", failure);
                }
            });
        }
        return CompletableFuture.completedFuture(Response.send(response));
    }

    // The topics to auto-create that the principal may not create: without CREATE on the cluster (asked without
    // logging a denial), those without CREATE on the topic.
    private List<String> notCreatable(Request request, MetadataImage image, List<String> authorized) {
        List<String> nonExisting =
                authorized.stream().filter(name -> image.topic(name).isEmpty()).toList();
        if (nonExisting.isEmpty()
                || auth.authorize(
                        request, AclOperation.CREATE, ResourceType.CLUSTER, Resource.CLUSTER_NAME, true, false, 1)) {
            return List.of();
        }
        Predicate<String> creatable = auth.filterByAuthorized(
                request, AclOperation.CREATE, ResourceType.TOPIC, nonExisting, Function.identity());
        return nonExisting.stream().filter(creatable.negate()).toList();
    }

    private static MetadataResponseTopic refused(String name, org.apache.kafka.common.Uuid id, boolean internal) {
        return new MetadataResponseTopic()
                .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                .setName(name)
                .setTopicId(id)
                .setIsInternal(internal);
    }

    private static Errors missing(String name, boolean autoCreate) {
        if (!Topic.isValid(name)) {
            return Errors.INVALID_TOPIC_EXCEPTION;
        }
        return autoCreate && !Topic.isInternal(name) ? Errors.LEADER_NOT_AVAILABLE : Errors.UNKNOWN_TOPIC_OR_PARTITION;
    }

    private MetadataResponseTopic describe(TopicImage topic, int nodeId) {
        MetadataResponseTopic result = new MetadataResponseTopic()
                .setErrorCode(Errors.NONE.code())
                .setName(topic.name())
                .setTopicId(WireUuids.toWire(topic.id()))
                .setIsInternal(Topic.isInternal(topic.name()));
        topic.partitions().forEach((index, partition) -> {
            MetadataResponsePartition described = new MetadataResponsePartition()
                    .setErrorCode(Errors.NONE.code())
                    .setPartitionIndex(index)
                    .setLeaderId(partition.leader())
                    .setLeaderEpoch(partition.leaderEpoch())
                    .setReplicaNodes(partition.replicas())
                    .setIsrNodes(partition.isr())
                    .setOfflineReplicas(List.of());
            if (offline.test(new TopicPartition(topic.name(), index))) {
                described
                        .setErrorCode(Errors.LEADER_NOT_AVAILABLE.code())
                        .setLeaderId(-1)
                        .setOfflineReplicas(List.of(nodeId));
            }
            result.partitions().add(described);
        });
        return result;
    }
}
