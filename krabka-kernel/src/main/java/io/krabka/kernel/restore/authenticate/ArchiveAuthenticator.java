package io.krabka.kernel.restore.authenticate;

import io.krabka.archive.ArchiveLayout;
import io.krabka.archive.keys.TrustedKeys;
import io.krabka.kernel.restore.ArchivedPartition;
import io.krabka.kernel.restore.SegmentAuthority;
import io.krabka.kernel.restore.report.AuthenticationReport;
import io.krabka.spi.objectstore.ObjectStore;
import java.util.Map;
import java.util.Optional;

/** The authenticated restore's authority: the write-once archive's signed, chained manifests under trusted keys. */
public final class ArchiveAuthenticator implements SegmentAuthority {

    /**
     * @param expectedHeads chain tips recorded elsewhere, by partition directory, in hex
     */
    public ArchiveAuthenticator(ObjectStore store, ArchiveLayout layout, TrustedKeys trustedKeys,
                                Map<String, String> expectedHeads) {
    }

    @Override
    public PartitionAuthority partition(ArchivedPartition partition) {
        throw new UnsupportedOperationException("in progress");
    }

    @Override
    public Optional<AuthenticationReport> report() {
        throw new UnsupportedOperationException("in progress");
    }
}
