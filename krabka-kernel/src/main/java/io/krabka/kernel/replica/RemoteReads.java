package io.krabka.kernel.replica;

import io.krabka.kernel.errors.KernelErrors;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.spi.storage.RemoteFetchRefusedException;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.kafka.common.protocol.Errors;

/** Which reads go to the remote tier, and the wire errors of failed remote reads. */
final class RemoteReads {

    private RemoteReads() {}

    /** Whether the partition's log is tiered (Kafka's {@code UnifiedLog.remoteLogEnabled}). */
    static boolean remoteLogEnabled(UnifiedLog log) {
        return log.remoteLogEnabled();
    }

    /** Whether {@code offset} is readable only from the remote tier: in [log start, local log start). */
    static boolean inRemoteTier(UnifiedLog log, long offset) {
        return remoteLogEnabled(log) && log.logStartOffset() <= offset && offset < log.localLogStartOffset();
    }

    /**
     * Kafka's error for a failed remote read ({@code Errors.forException} of what its reader threw): an offset no
     * remote segment holds is OFFSET_OUT_OF_RANGE; a failure of the remote tier or its streams is
     * UNKNOWN_SERVER_ERROR, not the local disk's KAFKA_STORAGE_ERROR; a read a write-only archive refuses is
     * OFFSET_OUT_OF_RANGE, as if the offsets were gone, while ListOffsets still names them.
     */
    static Errors forException(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof RemoteFetchRefusedException) {
                return Errors.OFFSET_OUT_OF_RANGE;
            }
        }
        return switch (error) {
            case IOException e -> Errors.UNKNOWN_SERVER_ERROR;
            case UncheckedIOException e -> Errors.UNKNOWN_SERVER_ERROR;
            default -> KernelErrors.forException(error);
        };
    }
}
