package io.krabka.archive.verify;

import io.krabka.spi.objectstore.IncompleteUpload;
import io.krabka.spi.objectstore.ObjectListing;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.objectstore.StoredObject;
import io.krabka.spi.storage.RemoteStorageException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What {@code krabka verify} runs: lists an archive, groups its objects by partition directory, verifies the
 * partitions in parallel on a bounded pool (each walk stops at its own first break; the others go on), and
 * reports, beside each partition, the objects outside any, the incomplete multipart uploads and the expected heads
 * that matched no partition. Grading the report is {@link VerifyGrader}'s.
 */
public final class ArchiveVerifier {

    private ArchiveVerifier() {}

    /**
     * Verifies the archive under the options' prefix.
     *
     * @throws ArchiveUnreadableException     if the store cannot be listed or read: the archive could not be
     *                                        looked at, which is not a finding about it
     * @throws AmbiguousExpectedHeadException if a bare expected head is given and more than one partition is
     *                                        checked
     */
    public static ArchiveVerifyReport verify(ObjectStore store, VerifyOptions options, VerifyProgress progress)
            throws ArchiveUnreadableException, AmbiguousExpectedHeadException {
        StoreReads reads = new StoreReads(store);
        String keyPrefix = options.layout().keyPrefix();
        try {
            store.checkAccess();
        } catch (RemoteStorageException e) {
            throw reads.unreadable("opening the store", e);
        }
        Map<String, List<StoredObject>> byDirectory = new TreeMap<>();
        List<String> outside = new ArrayList<>();
        group(store, reads, keyPrefix, byDirectory, outside);
        List<IncompleteUpload> uploads;
        try {
            uploads = store.incompleteUploads(keyPrefix);
        } catch (RemoteStorageException e) {
            throw reads.unreadable("listing the incomplete uploads under \"" + keyPrefix + "\"", e);
        }

        List<PartitionVerifyReport> partitions = verifyAll(reads, options, new ProgressCounter(progress), byDirectory);
        List<UnmatchedHead> unmatched = new ArrayList<>();
        partitions = applyExpectedHeads(options.expectedHeads(), partitions, unmatched);
        if (options.filtered()) {
            List<String> checked = partitions.stream()
                    .map(p -> keyPrefix + p.partitionDir() + "/")
                    .toList();
            uploads = uploads.stream()
                    .filter(u -> checked.stream().anyMatch(u.key()::startsWith))
                    .toList();
            outside = List.of();
        }
        return new ArchiveVerifyReport(
                store.location(), options.layout().prefix(), options.deep(), partitions, outside, uploads, unmatched);
    }

    /** Lists the prefix a page at a time: keys {@code <dir>/<name>} by directory, every other key outside. */
    private static void group(
            ObjectStore store,
            StoreReads reads,
            String keyPrefix,
            Map<String, List<StoredObject>> byDirectory,
            List<String> outside)
            throws ArchiveUnreadableException {
        Optional<String> token = Optional.empty();
        do {
            ObjectListing page;
            try {
                page = store.list(keyPrefix, token);
            } catch (RemoteStorageException e) {
                throw reads.unreadable("listing \"" + keyPrefix + "\"", e);
            }
            for (StoredObject object : page.objects()) {
                String relative = object.key().substring(keyPrefix.length());
                int slash = relative.indexOf('/');
                if (slash > 0 && slash < relative.length() - 1 && relative.indexOf('/', slash + 1) < 0) {
                    byDirectory
                            .computeIfAbsent(relative.substring(0, slash), d -> new ArrayList<>())
                            .add(object);
                } else {
                    outside.add(object.key());
                }
            }
            token = page.nextPageToken();
        } while (token.isPresent());
    }

    private static List<PartitionVerifyReport> verifyAll(
            StoreReads reads,
            VerifyOptions options,
            ProgressCounter progress,
            Map<String, List<StoredObject>> byDirectory)
            throws ArchiveUnreadableException {
        if (byDirectory.isEmpty()) {
            return List.of();
        }
        AtomicInteger threads = new AtomicInteger();
        ExecutorService pool =
                Executors.newFixedThreadPool(Math.min(options.parallelism(), byDirectory.size()), task -> {
                    Thread thread = new Thread(task, "krabka-verify-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        try {
            List<Future<Optional<PartitionVerifyReport>>> futures = new ArrayList<>();
            byDirectory.forEach((directory, objects) -> futures.add(
                    pool.submit(() -> new PartitionWalk(reads, options, progress, directory).run(objects))));
            List<PartitionVerifyReport> reports = new ArrayList<>();
            for (Future<Optional<PartitionVerifyReport>> future : futures) {
                future.get().ifPresent(reports::add);
            }
            return reports;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ArchiveUnreadableException unreadable) {
                throw unreadable;
            }
            throw new IllegalStateException("verifying a partition failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ArchiveUnreadableException("verification was interrupted", e);
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<PartitionVerifyReport> applyExpectedHeads(
            ExpectedHeads expected, List<PartitionVerifyReport> partitions, List<UnmatchedHead> unmatched)
            throws AmbiguousExpectedHeadException {
        List<PartitionVerifyReport> out = new ArrayList<>(partitions);
        if (expected.bare().isPresent()) {
            if (partitions.size() > 1) {
                throw new AmbiguousExpectedHeadException(partitions.stream()
                        .map(PartitionVerifyReport::partitionDir)
                        .toList());
            }
            if (partitions.isEmpty()) {
                unmatched.add(
                        new UnmatchedHead(Optional.empty(), expected.bare().get()));
            } else {
                out.set(0, partitions.getFirst().expecting(expected.bare().get()));
            }
        }
        expected.byDirectory().forEach((directory, head) -> {
            for (int i = 0; i < out.size(); i++) {
                if (out.get(i).partitionDir().equals(directory)) {
                    out.set(i, out.get(i).expecting(head));
                    return;
                }
            }
            unmatched.add(new UnmatchedHead(Optional.of(directory), head));
        });
        return out;
    }
}
