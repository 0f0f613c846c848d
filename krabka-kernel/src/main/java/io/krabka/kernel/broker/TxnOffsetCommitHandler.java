package io.krabka.kernel.broker;

import io.krabka.kernel.group.GroupCoordinator;
import io.krabka.kernel.group.PartitionCommit;
import io.krabka.kernel.log.VerificationGuard;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.kernel.metadata.WireUuids;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.kernel.transaction.TransactionCoordinator;
import io.krabka.kernel.transaction.TransactionSupportedOperation;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.common.Uuid;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.message.TxnOffsetCommitRequestData;
import org.apache.kafka.common.message.TxnOffsetCommitRequestData.TxnOffsetCommitRequestPartition;
import org.apache.kafka.common.message.TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.TxnOffsetCommitRequest;
import org.apache.kafka.common.requests.TxnOffsetCommitResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * TxnOffsetCommit (v0-6), as Kafka's {@code handleTxnOffsetCommitRequest}: unknown topics and partitions are
 * UNKNOWN_TOPIC_OR_PARTITION (UNKNOWN_TOPIC_ID by id from v6); the partition of {@code __consumer_offsets} that holds
 * the group is added to the transaction (v5+, transaction version 2) or verified to be in it (KIP-890); then the
 * group coordinator writes the offsets in the transaction, committed when its marker is. Before v2 a loading
 * coordinator is COORDINATOR_NOT_AVAILABLE, which clients from before Kafka 2.0 expect. Authorized as Kafka's: WRITE on
 * the transactional id and READ on the group for the request, READ on each topic for its partitions.
 */
public final class TxnOffsetCommitHandler implements ApiHandler {

    private final AuthHelper auth;
    private final GroupCoordinator groups;
    private final TransactionCoordinator transactions;
    private final Supplier<MetadataImage> metadata;

    /**
     * A handler.
     *
     * @param metadata the current cluster metadata
     */
    public TxnOffsetCommitHandler(
            AuthHelper auth,
            GroupCoordinator groups,
            TransactionCoordinator transactions,
            Supplier<MetadataImage> metadata) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.groups = Objects.requireNonNull(groups, "groups");
        this.transactions = Objects.requireNonNull(transactions, "transactions");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.TXN_OFFSET_COMMIT;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        short version = request.apiVersion();
        TxnOffsetCommitRequestData data = ((TxnOffsetCommitRequest) request.body()).data();
        boolean useTopicIds = TxnOffsetCommitResponse.useTopicIds(version);
        TxnOffsetCommitResponse.Builder response = TxnOffsetCommitResponse.newBuilder(useTopicIds);
        // WRITE on the transactional id, then READ on the group, refuse the whole request; READ on each topic its
        // partitions, before the check that it exists.
        if (!auth.authorize(request, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, data.transactionalId())) {
            throw new TransactionalIdAuthorizationException(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.message());
        }
        if (!auth.authorize(request, AclOperation.READ, ResourceType.GROUP, data.groupId())) {
            throw GroupAuthorizationException.forGroupId(data.groupId());
        }
        MetadataImage image = metadata.get();
        List<TopicImage> found = new ArrayList<>(data.topics().size());
        List<String> names = new ArrayList<>(data.topics().size());
        for (TxnOffsetCommitRequestTopic topic : data.topics()) {
            TopicImage known = useTopicIds
                    ? image.topic(WireUuids.fromWire(topic.topicId())).orElse(null)
                    : image.topic(topic.name()).orElse(null);
            found.add(known);
            names.add(useTopicIds ? (known != null ? known.name() : "") : topic.name());
        }
        Predicate<String> readable =
                auth.filterByAuthorized(request, AclOperation.READ, ResourceType.TOPIC, names, Function.identity());
        List<PartitionCommit> commits = new ArrayList<>();
        List<org.apache.kafka.common.Uuid> wireIds = new ArrayList<>();
        for (int t = 0; t < data.topics().size(); t++) {
            TxnOffsetCommitRequestTopic topic = data.topics().get(t);
            TopicImage known = found.get(t);
            Errors refused = null;
            if (useTopicIds && known == null) {
                refused = Errors.UNKNOWN_TOPIC_ID;
            } else if (!readable.test(names.get(t))) {
                refused = Errors.TOPIC_AUTHORIZATION_FAILED;
            } else if (known == null) {
                refused = Errors.UNKNOWN_TOPIC_OR_PARTITION;
            }
            if (refused != null) {
                response.addPartitions(
                        topic.topicId(),
                        topic.name(),
                        topic.partitions(),
                        TxnOffsetCommitRequestPartition::partitionIndex,
                        refused);
                continue;
            }
            Uuid topicId = useTopicIds ? known.id() : Uuid.ZERO_UUID;
            for (TxnOffsetCommitRequestPartition partition : topic.partitions()) {
                if (!known.partitions().containsKey(partition.partitionIndex())) {
                    response.addPartition(
                            topic.topicId(),
                            topic.name(),
                            partition.partitionIndex(),
                            Errors.UNKNOWN_TOPIC_OR_PARTITION);
                    continue;
                }
                commits.add(new PartitionCommit(
                        known.name(),
                        topicId,
                        partition.partitionIndex(),
                        partition.committedOffset(),
                        partition.committedLeaderEpoch(),
                        partition.committedMetadata()));
                wireIds.add(topic.topicId());
            }
        }
        List<Errors> errors = commits.isEmpty() ? List.of() : commit(data, version, commits);
        for (int i = 0; i < commits.size(); i++) {
            PartitionCommit commit = commits.get(i);
            Errors error = errors.get(i);
            if (version < 2 && error == Errors.COORDINATOR_LOAD_IN_PROGRESS) {
                error = Errors.COORDINATOR_NOT_AVAILABLE;
            }
            response.addPartition(wireIds.get(i), commit.topic(), commit.partition(), error);
        }
        return CompletableFuture.completedFuture(Response.send(response.build().data()));
    }

    private List<Errors> commit(TxnOffsetCommitRequestData data, short version, List<PartitionCommit> commits) {
        TransactionSupportedOperation operation = TransactionSupportedOperation.forTxnOffsetCommit(version);
        VerificationGuard guard;
        try {
            guard = groups.maybeStartTransactionVerification(
                    data.groupId(), data.producerId(), data.producerEpoch(), operation.supportsEpochBump());
        } catch (ApiException e) {
            return Collections.nCopies(commits.size(), Errors.forException(e));
        }
        if (guard != VerificationGuard.SENTINEL) {
            TopicPartition offsetsPartition = groups.offsetsPartition(data.groupId());
            Errors verified = transactions
                    .verifyOrAddPartitions(
                            data.transactionalId(),
                            data.producerId(),
                            data.producerEpoch(),
                            Set.of(offsetsPartition),
                            operation)
                    .get(offsetsPartition);
            if (verified != Errors.NONE) {
                return Collections.nCopies(commits.size(), verified);
            }
        }
        return groups.commitTransactionalOffsets(
                data.groupId(),
                data.memberId(),
                data.groupInstanceId(),
                data.generationIdOrMemberEpoch(),
                data.producerId(),
                data.producerEpoch(),
                guard,
                commits);
    }
}
