package io.krabka.kernel.network;

import io.krabka.kernel.log.BufferRecords;
import io.krabka.kernel.log.FileSlice;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.MessageSizeAccumulator;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.record.internal.BaseRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;

/**
 * Fetch responses for the zero-copy tests: a segment-like file holding Kafka's own batches between other bytes, and
 * the same response carried as {@link WireRecords} (slices of the file, bytes) or as Kafka's {@link MemoryRecords}.
 */
final class FetchResponses implements AutoCloseable {

    static final Uuid TOPIC_ID = Uuid.fromString("krabkaTopicIdAAAAAAAAA");
    private static final int PREFIX = 1000;

    final MemoryRecords first = MemoryRecords.withRecords(
            Compression.NONE,
            new SimpleRecord(1L, "k1".getBytes(), "v1".getBytes()),
            new SimpleRecord(2L, null, "v2".getBytes()));
    final MemoryRecords second =
            MemoryRecords.withRecords(7L, Compression.NONE, new SimpleRecord(3L, "k3".getBytes(), new byte[3000]));
    final MemoryRecords inMemory = MemoryRecords.withRecords(Compression.NONE, new SimpleRecord("m".getBytes()));
    final FileChannel channel;
    final FileSlice firstSlice;
    final FileSlice secondSlice;

    /** Writes the file: 1000 bytes of other data, the first batch, the second, then more other data. */
    FetchResponses(Path file) throws IOException {
        ByteBuffer contents = ByteBuffer.allocate(PREFIX + first.sizeInBytes() + second.sizeInBytes() + 500);
        contents.put(new byte[PREFIX])
                .put(first.buffer().duplicate())
                .put(second.buffer().duplicate());
        Files.write(file, contents.array());
        channel = FileChannel.open(file, StandardOpenOption.READ);
        firstSlice = new FileSlice(channel, file, PREFIX, first.sizeInBytes());
        secondSlice = new FileSlice(channel, file, PREFIX + first.sizeInBytes(), second.sizeInBytes());
    }

    /** The response with the log's records: two slices of the file and bytes in memory. */
    FetchResponseData withWireRecords(short version) {
        return response(
                version,
                new WireRecords(firstSlice),
                new WireRecords(new BufferRecords(inMemory.buffer())),
                new WireRecords(secondSlice));
    }

    /** The same response as Kafka's broker would hold it. */
    FetchResponseData withMemoryRecords(short version) {
        return response(version, first, inMemory, second);
    }

    private static FetchResponseData response(short version, BaseRecords p0, BaseRecords p1, BaseRecords p2) {
        FetchResponseData.FetchableTopicResponse topic = new FetchResponseData.FetchableTopicResponse()
                .setPartitions(List.of(partition(0, p0), partition(1, p1), partition(2, p2), partition(3, null)));
        if (version >= 13) {
            topic.setTopicId(TOPIC_ID);
        } else {
            topic.setTopic("orders");
        }
        return new FetchResponseData().setThrottleTimeMs(0).setResponses(List.of(topic));
    }

    private static FetchResponseData.PartitionData partition(int index, BaseRecords records) {
        return new FetchResponseData.PartitionData()
                .setPartitionIndex(index)
                .setHighWatermark(10)
                .setLastStableOffset(10)
                .setLogStartOffset(0)
                .setRecords(records);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    /** Kafka's encoding of a response frame, size included: the generated classes on a byte buffer. */
    static byte[] kafkaFrame(int correlationId, short version, FetchResponseData body) {
        short headerVersion = ApiKeys.FETCH.responseHeaderVersion(version);
        ResponseHeaderData header = new ResponseHeaderData().setCorrelationId(correlationId);
        ObjectSerializationCache cache = new ObjectSerializationCache();
        MessageSizeAccumulator size = new MessageSizeAccumulator();
        header.addSize(size, cache, headerVersion);
        body.addSize(size, cache, version);
        ByteBufferAccessor accessor = new ByteBufferAccessor(ByteBuffer.allocate(4 + size.totalSize()));
        accessor.writeInt(size.totalSize());
        header.write(accessor, cache, headerVersion);
        body.write(accessor, cache, version);
        return accessor.buffer().array();
    }
}
