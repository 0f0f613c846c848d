package io.krabka.testkit;

import static io.krabka.testkit.Verdicts.NOT_APPLICABLE;
import static io.krabka.testkit.Verdicts.NOT_VERIFIED;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Correct implementations pass every rule that applies to them; the others end saying why they did not run. */
class ReferenceImplementationsPassTest {

    private static final String LARGE_SEGMENT = "required_largeSegmentIsStreamedWithBoundedMemory";

    static class Reference extends RemoteStorageManagerConformance {
        @Override
        protected RemoteStorageManager createRemoteStorageManager(Path scratch) {
            return new ReferenceRemoteStorageManager(scratch);
        }
    }

    /** A write-once store: it refuses deletes as the SPI asks. */
    static class WriteOnce extends RemoteStorageManagerConformance {
        @Override
        protected RemoteStorageManager createRemoteStorageManager(Path scratch) {
            return new ForwardingRemoteStorageManager(new ReferenceRemoteStorageManager(scratch)) {
                private volatile boolean closed;

                @Override
                public void deleteLogSegmentData(RemoteLogSegmentMetadata metadata) throws RemoteStorageException {
                    if (closed) {
                        throw new IllegalStateException("closed");
                    }
                    throw new RemoteStorageException(
                            "this store is write-once; " + metadata.remoteLogSegmentId() + " stays");
                }

                @Override
                public void close() throws IOException {
                    closed = true;
                    delegate.close();
                }
            };
        }

        @Override
        protected Set<RemoteStorageManagerCapability> capabilities() {
            return EnumSet.of(RemoteStorageManagerCapability.DURABLE);
        }
    }

    /** A store that finds segments only through the receipt its copy returned, as an object key would be. */
    static class WithReceipts extends RemoteStorageManagerConformance {
        @Override
        protected RemoteStorageManager createRemoteStorageManager(Path scratch) {
            return new ForwardingRemoteStorageManager(new ReferenceRemoteStorageManager(scratch)) {
                @Override
                public Optional<CustomMetadata> copyLogSegmentData(
                        RemoteLogSegmentMetadata metadata, LogSegmentData data) throws RemoteStorageException {
                    delegate.copyLogSegmentData(metadata, data);
                    return Optional.of(receipt(metadata));
                }

                @Override
                public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int start)
                        throws RemoteStorageException {
                    return delegate.fetchLogSegment(withReceipt(metadata), start);
                }

                @Override
                public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int start, int end)
                        throws RemoteStorageException {
                    return delegate.fetchLogSegment(withReceipt(metadata), start, end);
                }

                @Override
                public InputStream fetchIndex(RemoteLogSegmentMetadata metadata, IndexType type)
                        throws RemoteStorageException {
                    return delegate.fetchIndex(withReceipt(metadata), type);
                }

                @Override
                public void deleteLogSegmentData(RemoteLogSegmentMetadata metadata) throws RemoteStorageException {
                    if (metadata.customMetadata().isPresent()) {
                        delegate.deleteLogSegmentData(withReceipt(metadata));
                    }
                }
            };
        }

        @Override
        protected Set<RemoteStorageManagerCapability> capabilities() {
            return EnumSet.allOf(RemoteStorageManagerCapability.class);
        }

        private static CustomMetadata receipt(RemoteLogSegmentMetadata metadata) {
            return new CustomMetadata(metadata.remoteLogSegmentId().id().toBytes());
        }

        private static RemoteLogSegmentMetadata withReceipt(RemoteLogSegmentMetadata metadata)
                throws RemoteStorageException {
            if (metadata.customMetadata().isEmpty()) {
                throw new RemoteResourceNotFoundException(
                        "without its receipt " + metadata.remoteLogSegmentId() + " cannot be found");
            }
            if (!metadata.customMetadata().get().equals(receipt(metadata))) {
                throw new RemoteStorageException(
                        "a receipt of another segment came with " + metadata.remoteLogSegmentId());
            }
            return metadata;
        }
    }

    static class ReferenceMetadata extends RemoteLogMetadataManagerConformance {
        @Override
        protected RemoteLogMetadataManager createRemoteLogMetadataManager(Path scratch) {
            return new ReferenceRemoteLogMetadataManager();
        }
    }

    /** Keeps its state per scratch directory, as a manager storing its metadata there would. */
    static class DurableMetadata extends RemoteLogMetadataManagerConformance {
        private static final Map<Path, ReferenceRemoteLogMetadataManager> STORES = new ConcurrentHashMap<>();

        @Override
        protected RemoteLogMetadataManager createRemoteLogMetadataManager(Path scratch) {
            return STORES.compute(
                    scratch,
                    (directory, earlier) -> earlier == null
                            ? new ReferenceRemoteLogMetadataManager()
                            : new ReferenceRemoteLogMetadataManager(earlier));
        }

        @Override
        protected Set<RemoteLogMetadataManagerCapability> capabilities() {
            return EnumSet.allOf(RemoteLogMetadataManagerCapability.class);
        }
    }

    /** Keeps the SPI's default {@code nextSegmentWithTxnIndex}. */
    static class DefaultTxnLookup extends RemoteLogMetadataManagerConformance {
        @Override
        protected RemoteLogMetadataManager createRemoteLogMetadataManager(Path scratch) {
            return new ForwardingRemoteLogMetadataManager(new ReferenceRemoteLogMetadataManager()) {
                @Override
                public Optional<RemoteLogSegmentMetadata> nextSegmentWithTxnIndex(
                        TopicIdPartition tp, int epoch, long offset) throws RemoteStorageException {
                    return remoteLogSegmentMetadata(tp, epoch, offset);
                }
            };
        }

        @Override
        protected Set<RemoteLogMetadataManagerCapability> capabilities() {
            return EnumSet.noneOf(RemoteLogMetadataManagerCapability.class);
        }
    }

    @Test
    void aCorrectStorageManagerPassesEveryRuleThatApplies() {
        KitRun.of(Reference.class)
                .expect(
                        Set.of(),
                        Map.of(
                                "optional_copyReturnsCustomMetadataThatLaterCallsReceive",
                                NOT_APPLICABLE,
                                "required_withoutDeleteEveryDeleteIsRefusedAndNothingIsLost",
                                NOT_APPLICABLE,
                                LARGE_SEGMENT,
                                NOT_VERIFIED));
    }

    @Test
    void aWriteOnceStorageManagerPassesByRefusingDeletes() {
        KitRun.of(WriteOnce.class)
                .expect(
                        Set.of(),
                        Map.of(
                                "optional_copyReturnsCustomMetadataThatLaterCallsReceive",
                                NOT_APPLICABLE,
                                "optional_deleteRemovesTheSegmentAndItsIndexes",
                                NOT_APPLICABLE,
                                "optional_deleteIsIdempotent",
                                NOT_APPLICABLE,
                                LARGE_SEGMENT,
                                NOT_VERIFIED));
    }

    @Test
    void aStorageManagerWithCustomMetadataGetsItBackOnEveryCall() {
        KitRun.of(WithReceipts.class)
                .expect(
                        Set.of(),
                        Map.of(
                                "required_withoutCustomMetadataCopyReturnsNone",
                                NOT_APPLICABLE,
                                "required_withoutDeleteEveryDeleteIsRefusedAndNothingIsLost",
                                NOT_APPLICABLE,
                                LARGE_SEGMENT,
                                NOT_VERIFIED));
    }

    @Test
    void aCorrectMetadataManagerPassesEveryRuleThatApplies() {
        KitRun.of(ReferenceMetadata.class)
                .expect(
                        Set.of(),
                        Map.of(
                                "optional_metadataSurvivesRestart", NOT_APPLICABLE,
                                "required_withoutTxnIndexSkippingNextSegmentIsTheContainingSegment", NOT_APPLICABLE));
    }

    @Test
    void aDurableMetadataManagerPassesTheRestartRule() {
        KitRun.of(DurableMetadata.class)
                .expect(
                        Set.of(),
                        Map.of("required_withoutTxnIndexSkippingNextSegmentIsTheContainingSegment", NOT_APPLICABLE));
    }

    @Test
    void aMetadataManagerKeepingTheDefaultTxnLookupPassesItsRule() {
        KitRun.of(DefaultTxnLookup.class)
                .expect(
                        Set.of(),
                        Map.of(
                                "optional_metadataSurvivesRestart", NOT_APPLICABLE,
                                "optional_nextSegmentWithTxnIndexSkipsSegmentsWithoutAbortedTransactions",
                                        NOT_APPLICABLE));
    }
}
