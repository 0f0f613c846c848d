package io.krabka.kernel.broker;

import io.krabka.kernel.network.KafkaWire;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.FetchResponse;
import org.apache.kafka.common.requests.ListOffsetsResponse;
import org.apache.kafka.common.requests.ProduceResponse;

/** Produce, Fetch and ListOffsets requests as a client writes them, and their round trips over a raw connection. */
final class DataRequests {

    private static final AtomicInteger CORRELATION = new AtomicInteger();

    private DataRequests() {}

    static MemoryRecords records(String... values) {
        SimpleRecord[] records = new SimpleRecord[values.length];
        for (int i = 0; i < values.length; i++) {
            records[i] = new SimpleRecord(System.currentTimeMillis(), ("k" + i).getBytes(), values[i].getBytes());
        }
        return MemoryRecords.withRecords(Compression.NONE, records);
    }

    static MemoryRecords idempotent(long producerId, short epoch, int sequence, String... values) {
        SimpleRecord[] records = new SimpleRecord[values.length];
        for (int i = 0; i < values.length; i++) {
            records[i] = new SimpleRecord(System.currentTimeMillis(), null, values[i].getBytes());
        }
        return MemoryRecords.withIdempotentRecords(Compression.NONE, producerId, epoch, sequence, records);
    }

    static ProduceRequestData produce(short acks, String topic, int partition, MemoryRecords records) {
        return produce(acks, topic, Uuid.ZERO_UUID, partition, records);
    }

    static ProduceRequestData produce(short acks, String topic, Uuid topicId, int partition, MemoryRecords records) {
        ProduceRequestData.TopicProduceDataCollection topics = new ProduceRequestData.TopicProduceDataCollection();
        topics.add(new ProduceRequestData.TopicProduceData()
                .setName(topic)
                .setTopicId(topicId)
                .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData()
                        .setIndex(partition)
                        .setRecords(records))));
        return new ProduceRequestData().setAcks(acks).setTimeoutMs(30_000).setTopicData(topics);
    }

    static FetchRequestData fetch(int maxWaitMs, int minBytes, FetchRequestData.FetchTopic... topics) {
        return new FetchRequestData()
                .setReplicaId(-1)
                .setMaxWaitMs(maxWaitMs)
                .setMinBytes(minBytes)
                .setMaxBytes(50 * 1024 * 1024)
                .setIsolationLevel((byte) 0)
                .setSessionId(0)
                .setSessionEpoch(-1)
                .setTopics(List.of(topics));
    }

    static FetchRequestData.FetchTopic fetchTopic(
            String topic, Uuid topicId, FetchRequestData.FetchPartition... partitions) {
        return new FetchRequestData.FetchTopic()
                .setTopic(topic)
                .setTopicId(topicId)
                .setPartitions(List.of(partitions));
    }

    static FetchRequestData.FetchPartition fetchPartition(int partition, long offset, int maxBytes) {
        return new FetchRequestData.FetchPartition()
                .setPartition(partition)
                .setFetchOffset(offset)
                .setPartitionMaxBytes(maxBytes)
                .setLogStartOffset(-1)
                .setCurrentLeaderEpoch(-1);
    }

    static ListOffsetsRequestData listOffsets(
            byte isolation, String topic, ListOffsetsRequestData.ListOffsetsPartition... partitions) {
        return new ListOffsetsRequestData()
                .setReplicaId(-1)
                .setIsolationLevel(isolation)
                .setTopics(List.of(new ListOffsetsRequestData.ListOffsetsTopic()
                        .setName(topic)
                        .setPartitions(List.of(partitions))));
    }

    static ListOffsetsRequestData.ListOffsetsPartition listPartition(int partition, long timestamp) {
        return new ListOffsetsRequestData.ListOffsetsPartition()
                .setPartitionIndex(partition)
                .setTimestamp(timestamp)
                .setCurrentLeaderEpoch(-1);
    }

    static ProduceResponse call(KafkaWire wire, short version, ProduceRequestData request) throws IOException {
        return call(wire, ApiKeys.PRODUCE, version, request, ProduceResponse.class);
    }

    static FetchResponse call(KafkaWire wire, short version, FetchRequestData request) throws IOException {
        return call(wire, ApiKeys.FETCH, version, request, FetchResponse.class);
    }

    static ListOffsetsResponse call(KafkaWire wire, short version, ListOffsetsRequestData request) throws IOException {
        return call(wire, ApiKeys.LIST_OFFSETS, version, request, ListOffsetsResponse.class);
    }

    static <R extends AbstractResponse> R call(
            KafkaWire wire, ApiKeys apiKey, short version, ApiMessage request, Class<R> type) throws IOException {
        int correlationId = CORRELATION.incrementAndGet();
        wire.send(apiKey, version, correlationId, request);
        return wire.receive(apiKey, version, correlationId, type);
    }

    /** Sends without reading a response (acks=0, or a response read later). */
    static int send(KafkaWire wire, ApiKeys apiKey, short version, ApiMessage request) throws IOException {
        int correlationId = CORRELATION.incrementAndGet();
        wire.send(apiKey, version, correlationId, request);
        return correlationId;
    }
}
