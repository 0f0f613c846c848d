package io.krabka.kernel.metadata;

import org.apache.kafka.common.protocol.Writable;

/**
 * A record of Kafka's cluster metadata log, encoded in Kafka's exact schema: the schemas are Kafka's
 * {@code metadata/src/main/resources/common/metadata/*.json}, and Kafka's generated classes judge the bytes in
 * tests. Kafka's kafka-metadata jar is not a dependency of the kernel.
 */
public sealed interface MetadataRecord
        permits FeatureLevelRecord,
                TopicRecord,
                PartitionRecord,
                ConfigRecord,
                RemoveTopicRecord,
                ProducerIdsRecord,
                PartitionChangeRecord,
                MetadataTransactionRecord,
                AccessControlEntryRecord,
                RemoveAccessControlEntryRecord,
                UserScramCredentialRecord,
                RemoveUserScramCredentialRecord,
                ClientQuotaRecord,
                RetainedRecord {

    /** The record type's api key in the metadata log's frame. */
    short apiKey();

    /** The newest version of the schema this encodes. */
    short highestSupportedVersion();

    /** The encoded size at {@code version}, in bytes. */
    default int size(short version) {
        return SizeCounter.sizeOf(this, version);
    }

    /** Writes the record at {@code version}, which must be supported. */
    void write(Writable out, short version);
}
