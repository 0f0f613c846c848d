package io.krabka.kernel.network;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.BufferRecords;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.network.Send;
import org.apache.kafka.common.network.TransferableChannel;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.SendBuilder;
import org.apache.kafka.common.record.internal.BaseRecords;
import org.apache.kafka.common.record.internal.RecordsSend;
import org.apache.kafka.common.requests.ResponseHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Response frames from the generated classes: Kafka's bytes, with file slices cut out as regions. */
@ExtendWith(NettyLeakCheck.class)
class ResponseEncoderTest {

    @TempDir
    Path dir;

    @Test
    void fetchResponsesOfEveryVersionCutTheFileSlicesOutAndEqualKafkasBytes() throws IOException {
        try (FetchResponses responses = new FetchResponses(dir.resolve("0.log"))) {
            for (short version = ApiKeys.FETCH.oldestVersion(); version <= ApiKeys.FETCH.latestVersion(); version++) {
                List<Object> pieces = ResponseEncoder.encode(
                        PooledByteBufAllocator.DEFAULT, 9, ApiKeys.FETCH, version, responses.withWireRecords(version));
                // Bytes, the first slice, bytes, the records in memory, bytes, the second slice, bytes.
                assertEquals(7, pieces.size(), "v" + version);
                RecordsRegion region = assertInstanceOf(RecordsRegion.class, pieces.get(1));
                assertEquals(responses.firstSlice.start(), region.position());
                assertEquals(responses.firstSlice.size(), region.count());
                assertEquals(
                        responses.inMemory.buffer(),
                        assertInstanceOf(ByteBuf.class, pieces.get(3)).nioBuffer());
                assertEquals(
                        responses.secondSlice.start(),
                        assertInstanceOf(RecordsRegion.class, pieces.get(5)).position());
                assertArrayEquals(
                        FetchResponses.kafkaFrame(9, version, responses.withMemoryRecords(version)),
                        drain(pieces),
                        "v" + version);
            }
        }
    }

    @Test
    void kafkasOwnSendOfWireRecordsGivesTheSameBytes() throws IOException {
        try (FetchResponses responses = new FetchResponses(dir.resolve("0.log"))) {
            short version = ApiKeys.FETCH.latestVersion();
            Send send = SendBuilder.buildResponseSend(
                    new ResponseHeader(5, ApiKeys.FETCH.responseHeaderVersion(version)),
                    responses.withWireRecords(version),
                    version);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (BytesChannel target = new BytesChannel(out)) {
                while (!send.completed()) {
                    send.writeTo(target);
                }
            }
            assertArrayEquals(
                    FetchResponses.kafkaFrame(5, version, responses.withMemoryRecords(version)), out.toByteArray());
        }
    }

    @Test
    void apiVersionsAnswersWithResponseHeaderV0AtFlexibleVersions() throws IOException {
        List<Object> pieces = ResponseEncoder.encode(
                PooledByteBufAllocator.DEFAULT,
                42,
                ApiKeys.API_VERSIONS,
                (short) 3,
                new ApiVersionsResponseData().setErrorCode((short) 35));
        // size, correlation id, error 35, empty compact array, throttle 0, no tagged fields; no header tags.
        assertArrayEquals(
                HexFormat.of().parseHex("0000000c" + "0000002a" + "0023" + "01" + "00000000" + "00"), drain(pieces));
    }

    @Test
    void aResponseOfAnotherApiIsRefused() {
        assertThrows(
                IllegalArgumentException.class,
                () -> ResponseEncoder.encode(
                        PooledByteBufAllocator.DEFAULT, 1, ApiKeys.FETCH, (short) 12, new MetadataResponseData()));
    }

    @Test
    void recordsOfAnUnknownTypeFailAsInKafkaAndWhatWasWrittenIsFreed() {
        BaseRecords unknown = new BaseRecords() {
            @Override
            public int sizeInBytes() {
                return 10;
            }

            @Override
            public RecordsSend<? extends BaseRecords> toSend() {
                throw new UnsupportedOperationException();
            }
        };
        FetchResponseData body = new FetchResponseData()
                .setResponses(List.of(new FetchResponseData.FetchableTopicResponse()
                        .setTopic("t")
                        .setPartitions(List.of(
                                new FetchResponseData.PartitionData()
                                        .setRecords(new WireRecords(new BufferRecords(ByteBuffer.allocate(5)))),
                                new FetchResponseData.PartitionData().setRecords(unknown)))));
        assertThrows(
                UnsupportedOperationException.class,
                () -> ResponseEncoder.encode(PooledByteBufAllocator.DEFAULT, 1, ApiKeys.FETCH, (short) 12, body));
    }

    /** The bytes of the pieces, which are released. */
    private static byte[] drain(List<Object> pieces) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (WritableByteChannel target = Channels.newChannel(out)) {
            for (Object piece : pieces) {
                if (piece instanceof ByteBuf buf) {
                    out.write(ByteBufUtil.getBytes(buf));
                } else {
                    RecordsRegion region = (RecordsRegion) piece;
                    while (region.transferred() < region.count()) {
                        assertTrue(region.transferTo(target, region.transferred()) >= 0);
                    }
                }
                ReferenceCountUtil.release(piece);
            }
        }
        return out.toByteArray();
    }

    /** Kafka's channel abstraction over a stream, for its own {@code Send}. */
    private static final class BytesChannel implements TransferableChannel {
        private final WritableByteChannel target;

        BytesChannel(ByteArrayOutputStream out) {
            this.target = Channels.newChannel(out);
        }

        @Override
        public boolean hasPendingWrites() {
            return false;
        }

        @Override
        public long transferFrom(FileChannel fileChannel, long position, long count) throws IOException {
            return fileChannel.transferTo(position, count, target);
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            long written = 0;
            for (int i = offset; i < offset + length; i++) {
                written += target.write(srcs[i]);
            }
            return written;
        }

        @Override
        public long write(ByteBuffer[] srcs) throws IOException {
            return write(srcs, 0, srcs.length);
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            return target.write(src);
        }

        @Override
        public boolean isOpen() {
            return target.isOpen();
        }

        @Override
        public void close() throws IOException {
            target.close();
        }
    }
}
