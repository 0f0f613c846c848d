package io.krabka.plugin.rlmm.inmemory;

import io.krabka.rlmm.cache.RemotePartitionMetadataStore;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import java.util.Objects;

/** A change of the metadata that the journal records: one of the manager's three writes. */
sealed interface MetadataChange {

    /** Applies the change to the store, as the manager's write did. */
    void applyTo(RemotePartitionMetadataStore store) throws RemoteResourceNotFoundException;

    /** {@code addRemoteLogSegmentMetadata}. */
    record AddSegment(RemoteLogSegmentMetadata segment) implements MetadataChange {
        /** Checks the part. */
        public AddSegment {
            Objects.requireNonNull(segment, "segment");
        }

        @Override
        public void applyTo(RemotePartitionMetadataStore store) {
            store.addCopyInProgressSegment(segment);
        }
    }

    /** {@code updateRemoteLogSegmentMetadata}. */
    record UpdateSegment(RemoteLogSegmentMetadataUpdate update) implements MetadataChange {
        /** Checks the part. */
        public UpdateSegment {
            Objects.requireNonNull(update, "update");
        }

        @Override
        public void applyTo(RemotePartitionMetadataStore store) throws RemoteResourceNotFoundException {
            store.updateRemoteLogSegmentMetadata(update);
        }
    }

    /** {@code putRemotePartitionDeleteMetadata}. */
    record PutPartitionDelete(RemotePartitionDeleteMetadata step) implements MetadataChange {
        /** Checks the part. */
        public PutPartitionDelete {
            Objects.requireNonNull(step, "step");
        }

        @Override
        public void applyTo(RemotePartitionMetadataStore store) {
            store.putRemotePartitionDeleteMetadata(step);
        }
    }
}
