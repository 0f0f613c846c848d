package io.krabka.plugin.rlmm.inmemory;

import io.krabka.rlmm.cache.MetadataSnapshot;
import io.krabka.rlmm.cache.RemotePartitionMetadataStore;
import io.krabka.spi.storage.InvalidStateTransitionException;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The metadata on disk: the JSON snapshot and the {@link ChangeJournal} of the changes made since it was written.
 * A change is appended to the journal and forced, one small write whatever the number of segments; once the
 * journal has grown to the size of the snapshot (and at least {@value #MIN_COMPACTION_BYTES} bytes), the next change
 * compacts instead: the whole content is written as a new snapshot, atomically, and an empty journal started after
 * it. So a change costs O(1) amortized, and a crash at any point loses no change whose write returned: the
 * snapshot is replaced all at once, and a journal that follows an older snapshot is ignored (its changes are in
 * the newer one). The first change after loading always compacts, so a journal is only ever appended to by the
 * process that started it. Not thread-safe: the manager serializes changes.
 */
final class DurableMetadata {

    static final long MIN_COMPACTION_BYTES = 64 * 1024;

    private final Path snapshot;
    private final Path journalFile;
    private ChangeJournal journal;
    private long compactAfterBytes;

    DurableMetadata(Path snapshot) {
        this.snapshot = snapshot;
        this.journalFile = ChangeJournal.pathOf(snapshot);
    }

    /**
     * Loads the snapshot and the changes journaled after it into {@code store}; nothing if there is no snapshot.
     *
     * @throws InvalidSnapshotException if the snapshot, the journal, or a change in it cannot be loaded
     */
    void load(RemotePartitionMetadataStore store) throws IOException {
        if (Files.exists(snapshot)) {
            loadFiles(store);
        }
        // The first serialization in a JVM loads and links Jackson's writers: about 200 ms, measured. Done here,
        // when the broker starts, rather than in the first change, which the first copy of a segment waits for.
        SnapshotFile.toBytes(store.snapshot());
    }

    private void loadFiles(RemotePartitionMetadataStore store) throws IOException {
        MetadataSnapshot content = SnapshotFile.read(snapshot);
        List<MetadataChange> changes = new ArrayList<>();
        Optional<List<byte[]>> records = ChangeJournal.read(journalFile, SnapshotFile.digest(snapshot));
        for (byte[] record : records.orElse(List.of())) {
            changes.add(ChangeJson.fromBytes(record, journalFile));
        }
        store.restore(content);
        for (MetadataChange change : changes) {
            try {
                change.applyTo(store);
            } catch (RemoteResourceNotFoundException | InvalidStateTransitionException | IllegalArgumentException e) {
                throw new InvalidSnapshotException(
                        journalFile,
                        "the journaled change " + change + " does not apply to the snapshot: " + e.getMessage(),
                        e);
            }
        }
    }

    /**
     * Makes a change that the store already holds durable: appended to the journal, or a compaction of
     * {@code content} when there is no journal to append to or it has grown large enough.
     */
    void record(MetadataChange change, Supplier<MetadataSnapshot> content) throws IOException {
        if (journal == null || journal.size() > compactAfterBytes) {
            compact(content.get());
            return;
        }
        try {
            journal.append(ChangeJson.toBytes(change));
        } catch (IOException e) {
            // What follows a failed append may not be readable: the next change writes everything afresh.
            restartAtNextChange();
            throw e;
        }
    }

    /** Drops the journal, so that the next change writes a whole snapshot: after the content was replaced. */
    void restartAtNextChange() {
        ChangeJournal open = journal;
        journal = null;
        if (open != null) {
            try {
                open.close();
            } catch (IOException ignored) {
                // Nothing more is written through it; its records are still on disk.
            }
        }
    }

    /** Writes the final content as the snapshot and deletes the journal, which it holds. */
    void close(MetadataSnapshot last) throws IOException {
        restartAtNextChange();
        SnapshotFile.write(snapshot, last);
        Files.deleteIfExists(journalFile);
    }

    private void compact(MetadataSnapshot content) throws IOException {
        restartAtNextChange();
        byte[] digest = SnapshotFile.write(snapshot, content);
        compactAfterBytes = Math.max(MIN_COMPACTION_BYTES, Files.size(snapshot));
        journal = ChangeJournal.start(journalFile, digest);
    }
}
