package io.krabka.kernel.network;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ResponseHeader;

/** A raw Kafka-protocol client over a blocking socket: frames in, frames out, nothing hidden. */
public final class KafkaWire implements AutoCloseable {

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    private KafkaWire(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    public static KafkaWire connect(InetSocketAddress address) throws IOException {
        Socket socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(30_000);
        socket.connect(address, 30_000);
        return new KafkaWire(socket);
    }

    /** A request's header and body (no size), as a Kafka client writes them. */
    public static byte[] request(ApiKeys apiKey, short version, int correlationId, String clientId, ApiMessage body) {
        RequestHeaderData header = new RequestHeaderData()
                .setRequestApiKey(apiKey.id)
                .setRequestApiVersion(version)
                .setCorrelationId(correlationId)
                .setClientId(clientId);
        short headerVersion = apiKey.requestHeaderVersion(version);
        ObjectSerializationCache cache = new ObjectSerializationCache();
        int size = header.size(cache, headerVersion) + body.size(cache, version);
        ByteBufferAccessor accessor = new ByteBufferAccessor(ByteBuffer.allocate(size));
        header.write(accessor, cache, headerVersion);
        body.write(accessor, cache, version);
        return accessor.buffer().array();
    }

    /** A frame: the size, then the bytes. */
    public static byte[] frame(byte[] payload) {
        return ByteBuffer.allocate(4 + payload.length)
                .putInt(payload.length)
                .put(payload)
                .array();
    }

    /** Sends a request frame. */
    public void send(ApiKeys apiKey, short version, int correlationId, ApiMessage body) throws IOException {
        write(frame(request(apiKey, version, correlationId, "krabka-test", body)));
    }

    public void write(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Half-closes: the server reads end of stream. */
    public void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    /** The next response frame's payload, or null if the server closed the connection. */
    public byte[] readFrame() throws IOException {
        try {
            int size = in.readInt();
            byte[] payload = new byte[size];
            in.readFully(payload);
            return payload;
        } catch (EOFException e) {
            return null;
        } catch (SocketException e) {
            if (e.getMessage() != null && e.getMessage().contains("reset")) {
                return null;
            }
            throw e;
        }
    }

    /** Reads the next response, checking its correlation id. */
    public <R extends AbstractResponse> R receive(ApiKeys apiKey, short version, int correlationId, Class<R> type)
            throws IOException {
        byte[] payload = readFrame();
        if (payload == null) {
            throw new EOFException("closed before the response to " + correlationId);
        }
        ByteBuffer buffer = ByteBuffer.wrap(payload);
        ResponseHeader header = ResponseHeader.parse(buffer, ResponseEncoder.responseHeaderVersion(apiKey, version));
        if (header.correlationId() != correlationId) {
            throw new AssertionError("correlation id " + header.correlationId() + ", expected " + correlationId);
        }
        return type.cast(AbstractResponse.parseResponse(apiKey, new ByteBufferAccessor(buffer), version));
    }

    /** Whether the server closed the connection: reads (and drops) responses until end of stream. */
    public boolean closedByServer() throws IOException {
        while (readFrame() != null) {
            // responses sent before the close
        }
        return true;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
