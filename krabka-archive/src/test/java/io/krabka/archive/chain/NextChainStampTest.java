package io.krabka.archive.chain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.krabka.archive.MalformedDocumentException;
import io.krabka.archive.UnsupportedFormatVersionException;
import io.krabka.archive.manifest.ChainHead;
import io.krabka.archive.manifest.ChainStamp;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentState;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class NextChainStampTest {

    private static final TopicIdPartition PARTITION = new TopicIdPartition(new Uuid(1, 2), "orders", 0);
    private static final Uuid EPOCH = new Uuid(7, 7);
    private static final Uuid FRESH = new Uuid(9, 9);

    @Test
    void noReceiptStartsAFreshEpochAtGenesis() {
        NextChainStamp next = NextChainStamp.of(List.of(), FRESH);
        assertEquals(new NextChainStamp.FreshEpoch(ChainStamp.genesis(FRESH)), next);
        assertEquals(Optional.of(new ChainStamp(FRESH, 0, ChainHead.GENESIS)), next.stamp());
    }

    @Test
    void continuesAfterTheReceipt() {
        RemoteLogSegmentMetadata segment =
                segment(100, RemoteLogSegmentState.COPY_SEGMENT_FINISHED, receipt(3, head(3)));
        assertEquals(
                new NextChainStamp.Continued(new ChainStamp(EPOCH, 4, head(3)), segment.remoteLogSegmentId()),
                NextChainStamp.of(List.of(segment), FRESH));
    }

    @Test
    void theGreatestStartOffsetWinsWhateverTheOrder() {
        RemoteLogSegmentMetadata later = segment(200, RemoteLogSegmentState.COPY_SEGMENT_FINISHED, receipt(7, head(7)));
        RemoteLogSegmentMetadata earlier =
                segment(100, RemoteLogSegmentState.COPY_SEGMENT_FINISHED, receipt(9, head(9)));
        assertEquals(
                Optional.of(new ChainStamp(EPOCH, 8, head(7))),
                NextChainStamp.of(List.of(later, earlier), FRESH).stamp());
        assertEquals(
                Optional.of(new ChainStamp(EPOCH, 8, head(7))),
                NextChainStamp.of(List.of(earlier, later), FRESH).stamp());
    }

    @Test
    void aTieGoesToTheGreatestUnsignedSeq() {
        long above = Long.MIN_VALUE; // 2^63, above every signed long
        RemoteLogSegmentMetadata low = segment(100, RemoteLogSegmentState.COPY_SEGMENT_FINISHED, receipt(5, head(5)));
        RemoteLogSegmentMetadata high =
                segment(100, RemoteLogSegmentState.COPY_SEGMENT_FINISHED, receipt(above, head(6)));
        assertEquals(
                Optional.of(new ChainStamp(EPOCH, above + 1, head(6))),
                NextChainStamp.of(List.of(high, low), FRESH).stamp());
    }

    @Test
    void ignoresDeletedSegmentsRequestsAndOtherMetadata() {
        RemoteLogSegmentMetadata live = segment(100, RemoteLogSegmentState.COPY_SEGMENT_FINISHED, receipt(1, head(1)));
        List<RemoteLogSegmentMetadata> segments = List.of(
                live,
                segment(200, RemoteLogSegmentState.DELETE_SEGMENT_STARTED, receipt(8, head(8))),
                segment(300, RemoteLogSegmentState.DELETE_SEGMENT_FINISHED, receipt(9, head(9))),
                segment(
                        400,
                        RemoteLogSegmentState.COPY_SEGMENT_STARTED,
                        Optional.of(WormChainRecord.request(new ChainStamp(EPOCH, 2, head(1)))
                                .toCustomMetadata())),
                segment(500, RemoteLogSegmentState.COPY_SEGMENT_FINISHED, Optional.empty()),
                segment(600, RemoteLogSegmentState.COPY_SEGMENT_FINISHED, bytes("{\"key\":\"orders/0\"}")),
                segment(700, RemoteLogSegmentState.COPY_SEGMENT_FINISHED, Optional.of(new CustomMetadata(new byte[] {1
                }))),
                segment(800, RemoteLogSegmentState.DELETE_SEGMENT_STARTED, bytes("{\"version\":1}")));
        assertEquals(
                new NextChainStamp.Continued(new ChainStamp(EPOCH, 2, head(1)), live.remoteLogSegmentId()),
                NextChainStamp.of(segments.iterator(), FRESH));
    }

    @Test
    void theLargestSeqExhaustsTheEpoch() {
        RemoteLogSegmentMetadata last =
                segment(100, RemoteLogSegmentState.COPY_SEGMENT_FINISHED, receipt(-1L, head(1)));
        NextChainStamp next = NextChainStamp.of(List.of(last), FRESH);
        assertEquals(new NextChainStamp.Exhausted(last.remoteLogSegmentId()), next);
        assertEquals(Optional.empty(), next.stamp());
    }

    @Test
    void aLiveRecordOfAnotherVersionStopsTheChain() {
        RemoteLogSegmentMetadata newer =
                segment(200, RemoteLogSegmentState.COPY_SEGMENT_FINISHED, bytes("{\"version\":1,\"anything\":true}"));
        NextChainStamp next = NextChainStamp.of(
                List.of(segment(100, RemoteLogSegmentState.COPY_SEGMENT_FINISHED, receipt(1, head(1))), newer), FRESH);
        NextChainStamp.UnreadableReceipt unreadable = assertInstanceOf(NextChainStamp.UnreadableReceipt.class, next);
        assertEquals(newer.remoteLogSegmentId(), unreadable.segment());
        assertInstanceOf(UnsupportedFormatVersionException.class, unreadable.cause());
        assertEquals(Optional.empty(), next.stamp());
    }

    @Test
    void aMalformedLiveRecordStopsTheChain() {
        NextChainStamp next = NextChainStamp.of(
                List.of(segment(100, RemoteLogSegmentState.COPY_SEGMENT_FINISHED, bytes("{\"version\":0,\"seq\":1}"))),
                FRESH);
        assertInstanceOf(
                MalformedDocumentException.class,
                assertInstanceOf(NextChainStamp.UnreadableReceipt.class, next).cause());
    }

    private static Optional<CustomMetadata> receipt(long seq, ChainHead head) {
        return Optional.of(WormChainRecord.receipt(new ChainStamp(EPOCH, seq, head(0)), head, Optional.empty())
                .toCustomMetadata());
    }

    private static Optional<CustomMetadata> bytes(String json) {
        return Optional.of(new CustomMetadata(json.getBytes(StandardCharsets.UTF_8)));
    }

    private static ChainHead head(int n) {
        return ChainHead.fromHex(String.format("%02x", n).repeat(32));
    }

    private static RemoteLogSegmentMetadata segment(
            long start, RemoteLogSegmentState state, Optional<CustomMetadata> custom) {
        TreeMap<Integer, Long> epochs = new TreeMap<>();
        epochs.put(0, start);
        return new RemoteLogSegmentMetadata(
                RemoteLogSegmentId.generateNew(PARTITION),
                start,
                start + 99,
                0,
                1,
                0,
                1024,
                custom,
                state,
                epochs,
                true);
    }
}
