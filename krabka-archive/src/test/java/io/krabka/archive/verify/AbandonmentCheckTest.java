package io.krabka.archive.verify;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.krabka.archive.ArchiveLayout;
import io.krabka.archive.abandon.AbandonedSegment;
import io.krabka.archive.abandon.AbandonmentRecord;
import io.krabka.archive.keys.SigningKey;
import io.krabka.archive.keys.TrustedKeys;
import io.krabka.spi.common.Uuid;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The one rule by which a reader takes an abandonment record at its word. */
class AbandonmentCheckTest {

    private static final ArchiveLayout LAYOUT = new ArchiveLayout("tier");
    private static final TrustedKeys TRUSTED =
            TrustedKeys.of(Map.of("worm-1", ArchiveTamperTest.KEY.verificationKey()));
    private static final AbandonedSegment SEGMENT =
            new AbandonedSegment("orders", new Uuid(0x0123, 0x4567), 0, new Uuid(0xC0FFEE, 7), 100, 199);

    private static AbandonmentCheck.Verdict judge(Optional<SigningKey> key) {
        return AbandonmentCheck.judge(
                SEGMENT.recordKey(LAYOUT),
                AbandonmentRecord.seal(SEGMENT, 1_700_000_000_000L, key).encode(),
                LAYOUT,
                TRUSTED);
    }

    @Test
    void aRecordSignedByATrustedKeyAtItsOwnKeyIsAccepted() {
        AbandonmentRecord record =
                AbandonmentRecord.seal(SEGMENT, 1_700_000_000_000L, Optional.of(ArchiveTamperTest.KEY));
        assertEquals(
                new AbandonmentCheck.Verdict.Accepted(record),
                AbandonmentCheck.judge(SEGMENT.recordKey(LAYOUT), record.encode(), LAYOUT, TRUSTED));
    }

    @Test
    void unsignedUntrustedAndMisplacedRecordsAreRejected() {
        assertEquals(new AbandonmentCheck.Verdict.Rejected("it is unsigned"), judge(Optional.empty()));
        assertEquals(
                new AbandonmentCheck.Verdict.Rejected("it is signed under key id \"other\", which is not trusted"),
                judge(Optional.of(SigningKey.fromPrivateKey("other", ArchiveTamperTest.filled(1)))));
        assertEquals(
                new AbandonmentCheck.Verdict.Rejected(
                        "it carries a public key other than the one trusted as \"worm-1\""),
                judge(Optional.of(ArchiveTamperTest.OTHER_KEY)));
        byte[] signed = AbandonmentRecord.seal(SEGMENT, 1, Optional.of(ArchiveTamperTest.KEY))
                .encode();
        String elsewhere = LAYOUT.segmentKey("orders", 0, SEGMENT.topicId(), 0, SEGMENT.segmentId(), "abandoned");
        assertEquals(
                new AbandonmentCheck.Verdict.Rejected("its fields name the record " + SEGMENT.recordKey(LAYOUT)),
                AbandonmentCheck.judge(elsewhere, signed, LAYOUT, TRUSTED));
    }

    @Test
    void aForgedOrMalformedRecordIsRejected() {
        String json = new String(
                AbandonmentRecord.seal(SEGMENT, 1, Optional.of(ArchiveTamperTest.KEY))
                        .encode(),
                UTF_8);
        String forged = json.replace("\"abandoned_at_ms\":1", "\"abandoned_at_ms\":2");
        assertEquals(
                new AbandonmentCheck.Verdict.Rejected(
                        "its signature does not verify under the key trusted as \"worm-1\""),
                AbandonmentCheck.judge(SEGMENT.recordKey(LAYOUT), forged.getBytes(UTF_8), LAYOUT, TRUSTED));
        assertEquals(
                AbandonmentCheck.Verdict.Rejected.class,
                AbandonmentCheck.judge(SEGMENT.recordKey(LAYOUT), "{}".getBytes(UTF_8), LAYOUT, TRUSTED)
                        .getClass());
    }
}
