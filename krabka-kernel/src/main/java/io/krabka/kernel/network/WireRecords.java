package io.krabka.kernel.network;

import io.krabka.kernel.log.FetchRecords;
import io.krabka.kernel.log.FileSlice;
import java.io.IOException;
import java.util.Objects;
import org.apache.kafka.common.network.TransferableChannel;
import org.apache.kafka.common.record.internal.BaseRecords;
import org.apache.kafka.common.record.internal.RecordsSend;

/**
 * The log's records in a response message's records field ({@code FetchResponseData.PartitionData.setRecords}):
 * the generated classes count their size as zero-copy bytes, and the network layer sends a {@link FileSlice} from
 * the segment file with sendfile and {@link io.krabka.kernel.log.BufferRecords} as bytes.
 *
 * @param records the records to send
 */
public record WireRecords(FetchRecords records) implements BaseRecords {

    /** Checks the records are present. */
    public WireRecords {
        Objects.requireNonNull(records, "records");
    }

    @Override
    public int sizeInBytes() {
        return records.sizeInBytes();
    }

    /** A {@code Send} of the records for kafka-clients' own send path ({@code SendBuilder}). */
    @Override
    public RecordsSend<WireRecords> toSend() {
        return new WireRecordsSend(this);
    }

    private static final class WireRecordsSend extends RecordsSend<WireRecords> {

        WireRecordsSend(WireRecords records) {
            super(records, records.sizeInBytes());
        }

        @Override
        protected int writeTo(TransferableChannel channel, int previouslyWritten, int remaining) throws IOException {
            return Math.toIntExact(records().records().transferTo(channel, previouslyWritten, remaining));
        }
    }
}
