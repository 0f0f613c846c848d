package io.krabka.archive.verify;

import io.krabka.archive.ArchiveFormatException;
import io.krabka.archive.ArchiveLayout;
import io.krabka.archive.abandon.AbandonmentRecord;
import io.krabka.archive.keys.SignatureStatus;
import io.krabka.archive.keys.TrustedKeys;
import java.util.Objects;

/**
 * Whether an abandonment record is taken at its word: only one signed by a trusted key, at the key its own fields
 * name, excuses the objects of its copy. {@code krabka verify} and the authenticated {@code krabka restore} judge
 * records by this one rule.
 */
public final class AbandonmentCheck {

    private AbandonmentCheck() {}

    /** What a record is worth. */
    public sealed interface Verdict {
        /**
         * Taken at its word.
         *
         * @param record the record
         */
        record Accepted(AbandonmentRecord record) implements Verdict {
            /** Validates the part. */
            public Accepted {
                Objects.requireNonNull(record, "record");
            }
        }

        /**
         * Excuses nothing.
         *
         * @param reason why, in one line, of the record as "it"
         */
        record Rejected(String reason) implements Verdict {
            /** Validates the part. */
            public Rejected {
                Objects.requireNonNull(reason, "reason");
            }
        }
    }

    /** Judges the record read as {@code bytes} at {@code key} of an archive under {@code layout}. */
    public static Verdict judge(String key, byte[] bytes, ArchiveLayout layout, TrustedKeys keys) {
        AbandonmentRecord record;
        try {
            record = AbandonmentRecord.decode(bytes);
        } catch (ArchiveFormatException e) {
            return new Verdict.Rejected(e.getMessage());
        }
        String expectedKey = record.segment().recordKey(layout);
        if (!expectedKey.equals(key)) {
            return new Verdict.Rejected("its fields name the record " + expectedKey);
        }
        if (record.signature().isEmpty()) {
            return new Verdict.Rejected("it is unsigned");
        }
        String keyId = record.signature().get().keyId();
        SignatureStatus status = record.check(keys).orElseThrow();
        return switch (status) {
            case VALID -> new Verdict.Accepted(record);
            case UNKNOWN_KEY_ID ->
                new Verdict.Rejected("it is signed under key id \"" + keyId + "\", which is not trusted");
            case FOREIGN_PUBLIC_KEY ->
                new Verdict.Rejected("it carries a public key other than the one trusted as \"" + keyId + "\"");
            case INVALID ->
                new Verdict.Rejected("its signature does not verify under the key trusted as \"" + keyId + "\"");
        };
    }
}
