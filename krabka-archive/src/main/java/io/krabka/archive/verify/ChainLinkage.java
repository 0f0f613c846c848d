package io.krabka.archive.verify;

import io.krabka.archive.internal.Uuids;
import io.krabka.archive.manifest.ChainHead;
import io.krabka.archive.manifest.ChainStamp;
import io.krabka.spi.common.Uuid;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The chain of one partition as its manifests are walked in offset order: within an epoch every seq follows the
 * one before by one and links to its head; a new epoch starts at seq 0 from genesis; an epoch once left never
 * resumes.
 */
final class ChainLinkage {

    private final List<EpochSpan> epochs = new ArrayList<>();
    private final Set<Uuid> seen = new HashSet<>();
    private ChainHead tip;

    /** Why a manifest at this stamp cannot come next; empty when it can. */
    Optional<String> check(ChainStamp stamp) {
        EpochSpan current = epochs.isEmpty() ? null : epochs.getLast();
        String epoch = Uuids.hyphenated(stamp.epochId());
        if (current != null && current.epochId().equals(stamp.epochId())) {
            if (current.lastSeq() == -1L || stamp.seq() != current.lastSeq() + 1) {
                return Optional.of("seq " + stamp.seqText() + " follows seq " + Long.toUnsignedString(current.lastSeq())
                        + " in epoch " + epoch + ": the chain skips or repeats a manifest");
            }
            if (!stamp.prevHead().equals(tip)) {
                return Optional.of("prev_head " + stamp.prevHead() + " is not the head of seq "
                        + Long.toUnsignedString(current.lastSeq()) + " (" + tip + ")");
            }
            return Optional.empty();
        }
        if (seen.contains(stamp.epochId())) {
            return Optional.of(
                    "epoch " + epoch + " resumes after epoch " + Uuids.hyphenated(current.epochId()) + " began");
        }
        if (stamp.seq() != 0) {
            return Optional.of("epoch " + epoch + " starts at seq " + stamp.seqText()
                    + ", not 0: its first manifests are missing");
        }
        if (!stamp.prevHead().equals(ChainHead.GENESIS)) {
            return Optional.of("seq 0 of epoch " + epoch + " links to prev_head " + stamp.prevHead() + ", not genesis");
        }
        return Optional.empty();
    }

    /** Appends a manifest that {@link #check} accepted. */
    void append(ChainStamp stamp, ChainHead head, long startOffset, long endOffset) {
        if (!epochs.isEmpty() && epochs.getLast().epochId().equals(stamp.epochId())) {
            EpochSpan current = epochs.removeLast();
            epochs.add(new EpochSpan(
                    current.epochId(), current.firstSeq(), stamp.seq(), current.startOffset(), endOffset));
        } else {
            seen.add(stamp.epochId());
            epochs.add(new EpochSpan(stamp.epochId(), stamp.seq(), stamp.seq(), startOffset, endOffset));
        }
        tip = head;
    }

    /** The epochs so far, in the order they began. */
    List<EpochSpan> epochs() {
        return List.copyOf(epochs);
    }

    /** The head of the last manifest appended. */
    Optional<ChainHead> tip() {
        return Optional.ofNullable(tip);
    }
}
