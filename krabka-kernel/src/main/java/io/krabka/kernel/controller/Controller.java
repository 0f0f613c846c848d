package io.krabka.kernel.controller;

import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataPublisher;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.AlterConfigsResponseData;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData;
import org.apache.kafka.common.message.AlterUserScramCredentialsResponseData;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsResponseData.CreatePartitionsTopicResult;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData;
import org.apache.kafka.server.authorizer.AclCreateResult;
import org.apache.kafka.server.authorizer.AclDeleteResult;

/**
 * The controller of a single-node cluster (Kafka's {@code QuorumController}): the one writer of the metadata log.
 * Each write appends Kafka's metadata records to {@code __cluster_metadata-0}, applies them and publishes the new
 * image; its future completes after every publisher has taken that image.
 *
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

    /**
     * Deletes topics by name or id as a DeleteTopics request asks: one result per topic named, with Kafka's errors
     * for unknown, duplicate or ambiguous entries.
     */
    CompletableFuture<DeleteTopicsResponseData> deleteTopics(DeleteTopicsRequestData request);

    /** Adds partitions as a CreatePartitions request asks (validate-only included): one result per topic. */
    CompletableFuture<List<CreatePartitionsTopicResult>> createPartitions(CreatePartitionsRequestData request);

    /** Changes configs key by key as an IncrementalAlterConfigs request asks: one result per resource. */
    CompletableFuture<IncrementalAlterConfigsResponseData> incrementalAlterConfigs(
            IncrementalAlterConfigsRequestData request);

    /** Replaces the whole config set of each resource as a (legacy) AlterConfigs request asks. */
    CompletableFuture<AlterConfigsResponseData> legacyAlterConfigs(AlterConfigsRequestData request);

    /** Creates ACLs as a CreateAcls request asks: one result per ACL, in order, with Kafka's validation. */
    CompletableFuture<List<AclCreateResult>> createAcls(List<AclBinding> acls);

    /** Deletes the ACLs each filter matches: one result per filter, naming the ACLs it deleted. */
    CompletableFuture<List<AclDeleteResult>> deleteAcls(List<AclBindingFilter> filters);

    /** Sets and removes SCRAM credentials as an AlterUserScramCredentials request asks: one result per user. */
    CompletableFuture<AlterUserScramCredentialsResponseData> alterUserScramCredentials(
            AlterUserScramCredentialsRequestData request);

    /** Gives {@code brokerId} the next block of producer ids. */
    CompletableFuture<ProducerIdsBlock> allocateProducerIds(int brokerId);
}
