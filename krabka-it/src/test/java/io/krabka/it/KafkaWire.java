package io.krabka.it;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.ResponseHeader;

/**
 * A raw Kafka-protocol connection to a broker: request frames written as a client writes them, whole response frames
 * read back, nothing hidden; for requests no client API sends as a test needs them.
 */
final class KafkaWire implements AutoCloseable {
    private final Socket socket = new Socket();
    private final DataInputStream in;
    private int correlationId;

    KafkaWire(InetSocketAddress address) throws IOException {
        socket.connect(address, 10_000);
        in = new DataInputStream(socket.getInputStream());
    }

    /** A connection to {@code host:port}. */
    static KafkaWire connect(String bootstrapServers) throws IOException {
        int colon = bootstrapServers.lastIndexOf(':');
        return new KafkaWire(new InetSocketAddress(
                bootstrapServers.substring(0, colon), Integer.parseInt(bootstrapServers.substring(colon + 1))));
    }

    /** A request frame: its size, the header of {@code key}'s version, then the body. */
    static byte[] frame(ApiKeys key, short version, int correlationId, ApiMessage body) {
        RequestHeader header = new RequestHeader(key, version, "krabka-it", correlationId);
        short headerVersion = key.requestHeaderVersion(version);
        ObjectSerializationCache cache = new ObjectSerializationCache();
        int size = header.data().size(cache, headerVersion) + body.size(cache, version);
        ByteBuffer buffer = ByteBuffer.allocate(4 + size).putInt(size);
        ByteBufferAccessor out = new ByteBufferAccessor(buffer);
        header.data().write(out, cache, headerVersion);
        body.write(out, cache, version);
        return buffer.array();
    }

    /** Writes bytes; a write to a connection the broker closed is seen by the {@link #read} that follows. */
    void write(byte[] bytes) throws IOException {
        try {
            socket.getOutputStream().write(bytes);
        } catch (SocketException e) {
            // Closed by the broker after an earlier frame.
        }
    }

    /** The next response frame (without its size), or null when the broker closed the connection. */
    byte[] read(Duration timeout) throws IOException {
        socket.setSoTimeout((int) timeout.toMillis());
        try {
            byte[] frame = new byte[in.readInt()];
            in.readFully(frame);
            return frame;
        } catch (EOFException | SocketException e) {
            return null;
        }
    }

    /** Sends a request and reads its response, which must come within {@code timeout}. */
    <R extends AbstractResponse> R call(ApiKeys key, short version, ApiMessage body, Class<R> type, Duration timeout)
            throws IOException {
        int id = ++correlationId;
        write(frame(key, version, id, body));
        byte[] response = read(timeout);
        if (response == null) {
            throw new EOFException("the broker closed the connection instead of answering " + key + " v" + version);
        }
        ByteBuffer buffer = ByteBuffer.wrap(response);
        ResponseHeader header = ResponseHeader.parse(buffer, key.responseHeaderVersion(version));
        if (header.correlationId() != id) {
            throw new IOException("correlation id " + header.correlationId() + ", expected " + id);
        }
        return type.cast(AbstractResponse.parseResponse(key, new ByteBufferAccessor(buffer), version));
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
