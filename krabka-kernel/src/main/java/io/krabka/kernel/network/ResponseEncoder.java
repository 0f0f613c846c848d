package io.krabka.kernel.network;

import io.netty.buffer.ByteBufAllocator;
import java.util.List;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.MessageSizeAccumulator;
import org.apache.kafka.common.protocol.ObjectSerializationCache;

/**
 * Encodes a response frame with kafka-clients' generated classes, as Kafka's {@code SendBuilder}: the size and the
 * bytes computed with the same {@link ObjectSerializationCache}, one buffer for everything but the records fields,
 * which follow in place: {@link WireRecords} file slices as file regions, records in memory as wrapped buffers.
 */
final class ResponseEncoder {

    private ResponseEncoder() {}

    /** The response header version of an API version: ApiVersions always answers with header v0. */
    static short responseHeaderVersion(ApiKeys apiKey, short apiVersion) {
        return apiKey == ApiKeys.API_VERSIONS ? 0 : apiKey.responseHeaderVersion(apiVersion);
    }

    /**
     * The frame of a response: the buffers and file regions to write in order; the caller owns them.
     *
     * @throws IllegalArgumentException if the body is not of {@code apiKey}
     * @throws RuntimeException         what kafka-clients throws for a body it cannot write at {@code apiVersion}
     */
    static List<Object> encode(
            ByteBufAllocator alloc, int correlationId, ApiKeys apiKey, short apiVersion, ApiMessage body) {
        if (body.apiKey() != apiKey.id) {
            throw new IllegalArgumentException(
                    "a response of api key " + body.apiKey() + " to a " + apiKey + " request");
        }
        short headerVersion = responseHeaderVersion(apiKey, apiVersion);
        ResponseHeaderData header = new ResponseHeaderData().setCorrelationId(correlationId);
        ObjectSerializationCache cache = new ObjectSerializationCache();
        MessageSizeAccumulator size = new MessageSizeAccumulator();
        header.addSize(size, cache, headerVersion);
        body.addSize(size, cache, apiVersion);
        int inBuffer = Integer.BYTES + size.sizeExcludingZeroCopy();
        ByteBufWritable writable = new ByteBufWritable(alloc.buffer(inBuffer, inBuffer));
        try {
            writable.writeInt(size.totalSize());
            header.write(writable, cache, headerVersion);
            body.write(writable, cache, apiVersion);
            if (writable.bytesWritten() != inBuffer
                    || writable.zeroCopyBytes() != size.totalSize() - size.sizeExcludingZeroCopy()) {
                throw new IllegalStateException("wrote " + writable.bytesWritten() + " + " + writable.zeroCopyBytes()
                        + " bytes of a " + apiKey + " response sized " + inBuffer + " + "
                        + (size.totalSize() - size.sizeExcludingZeroCopy()));
            }
        } catch (RuntimeException e) {
            writable.discard();
            throw e;
        }
        return writable.finish();
    }
}
