package io.krabka.archive.verify;

import io.krabka.archive.ArchiveLayout;
import io.krabka.archive.abandon.AbandonmentRecord;
import io.krabka.archive.keys.TrustedKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The abandonment records of one partition directory, each taken at its word or rejected as
 * {@link AbandonmentCheck} judges it.
 */
final class AbandonmentScan {

    /** A record taken at its word. */
    record Accepted(String key, AbandonmentRecord record, String objectKeyPrefix) {}

    private final List<Accepted> accepted = new ArrayList<>();
    private final List<RejectedRecord> rejected = new ArrayList<>();

    /** Reads and judges every record among the keys. */
    static AbandonmentScan of(List<String> recordKeys, StoreReads reads, ArchiveLayout layout, TrustedKeys keys)
            throws ArchiveUnreadableException {
        AbandonmentScan scan = new AbandonmentScan();
        for (String key : recordKeys) {
            Optional<String> refusal = switch (reads.document(key, AbandonmentRecord.MAX_RECORD_BYTES)) {
                case StoreReads.Document.Missing missing -> Optional.of("it is gone from the store");
                case StoreReads.Document.TooLarge large ->
                    Optional.of("it is " + large.size() + " bytes, above the " + AbandonmentRecord.MAX_RECORD_BYTES
                            + " byte cap");
                case StoreReads.Document.Found found -> scan.judge(key, found.bytes(), layout, keys);
            };
            refusal.ifPresent(reason -> scan.rejected.add(new RejectedRecord(key, reason)));
        }
        return scan;
    }

    /** The records taken at their word. */
    List<Accepted> accepted() {
        return List.copyOf(accepted);
    }

    /** The records rejected, with why. */
    List<RejectedRecord> rejected() {
        return List.copyOf(rejected);
    }

    /** The accepted record whose copy holds this key, if any. */
    Optional<Accepted> covering(String objectKey) {
        return accepted.stream()
                .filter(a -> objectKey.startsWith(a.objectKeyPrefix()))
                .findFirst();
    }

    private Optional<String> judge(String key, byte[] bytes, ArchiveLayout layout, TrustedKeys keys) {
        return switch (AbandonmentCheck.judge(key, bytes, layout, keys)) {
            case AbandonmentCheck.Verdict.Accepted accepted -> {
                AbandonmentRecord record = accepted.record();
                this.accepted.add(new Accepted(key, record, record.segment().objectKeyPrefix(layout)));
                yield Optional.empty();
            }
            case AbandonmentCheck.Verdict.Rejected rejected -> Optional.of(rejected.reason());
        };
    }
}
