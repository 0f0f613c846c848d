package io.krabka.kernel.restore.authenticate;

import io.krabka.archive.ArchiveLayout;
import io.krabka.archive.keys.TrustedKeys;
import io.krabka.archive.manifest.ChainHead;
import io.krabka.archive.verify.StoreReads;
import io.krabka.kernel.restore.ArchivedPartition;
import io.krabka.kernel.restore.AuthenticationException;
import io.krabka.kernel.restore.SegmentAuthority;
import io.krabka.kernel.restore.UnreadableArchiveException;
import io.krabka.kernel.restore.report.AuthenticationReport;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.storage.RemoteStorageException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The authenticated restore's authority: the write-once archive's signed, chained manifests under trusted keys.
 * {@link #partition} authenticates a partition's whole chain before any of its bytes are read, and compares its
 * tip with the expected head; the {@link SegmentCheck} of each copy then holds the bytes read to the manifest's
 * claims. Safe for the threads that restore partitions at once; what is authenticated is tallied for the report.
 */
public final class ArchiveAuthenticator implements SegmentAuthority {

    private final ObjectStore store;
    private final ArchiveLayout layout;
    private final TrustedKeys trustedKeys;
    private final Map<String, ChainHead> expectedHeads;
    private final StoreReads reads;
    private final AuthenticationTally tally = new AuthenticationTally();
    private boolean expectedDirectoriesFound;

    /**
     * @param store         the archive's store
     * @param layout        the archive's key prefix
     * @param trustedKeys   the keys whose signatures vouch for manifests; never a key a manifest carries
     * @param expectedHeads chain tips recorded elsewhere, by partition directory, in hex
     * @throws IllegalArgumentException if no key is trusted or an expected head is not 64 hex digits
     */
    public ArchiveAuthenticator(
            ObjectStore store, ArchiveLayout layout, TrustedKeys trustedKeys, Map<String, String> expectedHeads) {
        this.store = Objects.requireNonNull(store, "store");
        this.layout = Objects.requireNonNull(layout, "layout");
        this.trustedKeys = Objects.requireNonNull(trustedKeys, "trustedKeys");
        if (trustedKeys.keyIds().isEmpty()) {
            throw new IllegalArgumentException("an authenticated restore needs at least one trusted key");
        }
        Map<String, ChainHead> heads = new TreeMap<>();
        expectedHeads.forEach((directory, hex) -> {
            try {
                heads.put(Objects.requireNonNull(directory, "directory"), ChainHead.fromHex(hex));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "--worm-expect-head " + directory + "=" + hex + ": the head must be 64 hex digits", e);
            }
        });
        this.expectedHeads = Map.copyOf(heads);
        this.reads = new StoreReads(store);
    }

    @Override
    public PartitionAuthority partition(ArchivedPartition partition)
            throws AuthenticationException, UnreadableArchiveException {
        requireExpectedDirectories();
        PartitionChainWalk.AuthenticatedChain chain =
                new PartitionChainWalk(reads, layout, trustedKeys).walk(partition);
        Optional<ChainHead> expected = Optional.ofNullable(expectedHeads.get(partition.directory()));
        if (expected.isPresent() && !chain.tip().equals(expected)) {
            throw new AuthenticationException(
                    partition.directory(),
                    chain.tip().map(tip -> "the chain's tip is " + tip).orElse("the partition has no chain")
                            + ", --worm-expect-head expects " + expected.get());
        }
        tally.partition(partition.directory(), chain.manifests(), chain.tip(), expected.isPresent());
        return new ClaimedSegments(chain.claims(), tally);
    }

    @Override
    public Optional<AuthenticationReport> report() {
        return Optional.of(tally.report(List.copyOf(trustedKeys.keyIds())));
    }

    /**
     * Every expected head must name a partition the archive holds, or a tip recorded elsewhere would go unchecked
     * without a word. A partition left out by the restore's topics is still held, so this asks the store rather
     * than counting the partitions authenticated; once, before the first partition.
     */
    private synchronized void requireExpectedDirectories() throws AuthenticationException, UnreadableArchiveException {
        if (expectedDirectoriesFound) {
            return;
        }
        for (String directory : expectedHeads.keySet()) {
            String prefix = layout.keyPrefix() + directory + "/";
            try {
                if (store.list(prefix, Optional.empty()).objects().isEmpty()) {
                    throw new AuthenticationException(
                            directory, "--worm-expect-head names a partition directory " + "the archive does not hold");
                }
            } catch (RemoteStorageException e) {
                throw new UnreadableArchiveException(
                        "cannot read the archive at " + store.location() + ": listing \"" + prefix + "\" failed: "
                                + e.getMessage(),
                        e);
            }
        }
        expectedDirectoriesFound = true;
    }
}
