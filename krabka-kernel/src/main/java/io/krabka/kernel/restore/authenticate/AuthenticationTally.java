package io.krabka.kernel.restore.authenticate;

import io.krabka.archive.manifest.ChainHead;
import io.krabka.kernel.restore.report.AuthenticationReport;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the authenticated restore has vouched for so far, counted from the threads that restore the partitions at
 * once.
 */
final class AuthenticationTally {

    private final AtomicInteger partitions = new AtomicInteger();
    private final AtomicInteger manifests = new AtomicInteger();
    private final AtomicInteger objects = new AtomicInteger();
    private final ConcurrentSkipListMap<String, String> chainHeads = new ConcurrentSkipListMap<>();
    private final AtomicBoolean everyTipPinned = new AtomicBoolean(true);

    /**
     * A partition authenticated: its manifests, its tip (none when every copy was abandoned), and whether an
     * expected head pinned that tip.
     */
    void partition(String directory, int manifestCount, Optional<ChainHead> tip, boolean pinned) {
        manifests.addAndGet(manifestCount);
        tip.ifPresent(head -> chainHeads.put(directory, head.hex()));
        if (!pinned) {
            everyTipPinned.set(false);
        }
        partitions.incrementAndGet();
    }

    /** Objects found as their manifest claims them. */
    void objectsChecked(int count) {
        objects.addAndGet(count);
    }

    /** The report; the tail is protected only when there was a partition and every one had its tip pinned. */
    AuthenticationReport report(List<String> trustedKeys) {
        int authenticated = partitions.get();
        return new AuthenticationReport(
                authenticated,
                manifests.get(),
                objects.get(),
                trustedKeys,
                chainHeads,
                authenticated > 0 && everyTipPinned.get());
    }
}
