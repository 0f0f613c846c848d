package io.krabka.kernel.network;

import io.netty.channel.Channel;
import java.util.EnumSet;
import java.util.Set;

/**
 * Whether a connection reads: closed while any reason holds (too many requests in flight, responses queued past
 * the write buffer's high water mark, the broker's request budget spent, shutdown). Closing turns auto-read off,
 * so the socket's buffer fills and TCP pushes back on the client; opening turns it on and tells the frame decoder
 * to decode the frames it already holds. Used on the connection's event loop only.
 */
final class ReadGate {

    /** Why a connection does not read. */
    enum Reason {
        /** The connection has the most requests in flight it may have. */
        IN_FLIGHT,
        /** The responses waiting to be written are past the high water mark. */
        UNWRITABLE,
        /** The broker's request budget is spent. */
        BUDGET,
        /** The server is shutting down. */
        SHUTDOWN
    }

    /** The event that the gate opened, fired down the pipeline. */
    static final Object OPENED = new Object() {
        @Override
        public String toString() {
            return "ReadGate.OPENED";
        }
    };

    private final Channel channel;
    private final Set<Reason> reasons = EnumSet.noneOf(Reason.class);

    ReadGate(Channel channel) {
        this.channel = channel;
    }

    /** Whether the connection may read and decode. */
    boolean isOpen() {
        return reasons.isEmpty();
    }

    /** Stops reading for {@code reason}. */
    void close(Reason reason) {
        reasons.add(reason);
        channel.config().setAutoRead(false);
    }

    /** Resumes reading if {@code reason} was the last one holding it. */
    void open(Reason reason) {
        if (reasons.remove(reason) && reasons.isEmpty() && channel.isActive()) {
            channel.config().setAutoRead(true);
            channel.pipeline().fireUserEventTriggered(OPENED);
        }
    }
}
