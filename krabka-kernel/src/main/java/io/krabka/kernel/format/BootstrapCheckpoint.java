package io.krabka.kernel.format;

import io.krabka.kernel.metadata.AccessControlEntryRecord;
import io.krabka.kernel.metadata.FeatureLevelRecord;
import io.krabka.kernel.metadata.MetadataBatch;
import io.krabka.kernel.metadata.MetadataParseException;
import io.krabka.kernel.metadata.MetadataRecordAndVersion;
import io.krabka.kernel.metadata.UserScramCredentialRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads what {@code krabka format} (or Kafka's format tool) bootstrapped the cluster metadata with: the feature
 * records of the bootstrap snapshot ({@link BootstrapSnapshot}) in the metadata log directory.
 */
public final class BootstrapCheckpoint {

    private BootstrapCheckpoint() {}

    /** The bootstrap snapshot's file under {@code metadataLogDir}. */
    public static Path file(Path metadataLogDir) {
        return metadataLogDir.resolve(BootstrapSnapshot.DIRECTORY).resolve(BootstrapSnapshot.FILE_NAME);
    }

    /**
     * The records of the bootstrap snapshot, in the order written: the feature levels, then any SCRAM credentials
     * and ACLs ({@code --add-scram}, {@code --add-acl}).
     *
     * @throws NoSuchFileException    if the directory was not formatted
     * @throws MetadataParseException if the snapshot holds another record type, or bad bytes
     */
    public static List<MetadataRecordAndVersion> read(Path metadataLogDir) throws IOException {
        Path file = file(metadataLogDir);
        List<MetadataRecordAndVersion> records = new ArrayList<>();
        for (MetadataBatch batch : MetadataBatch.readAll(ByteBuffer.wrap(Files.readAllBytes(file)), file.toString())) {
            for (MetadataRecordAndVersion record : batch.records()) {
                if (!(record.record() instanceof FeatureLevelRecord
                        || record.record() instanceof UserScramCredentialRecord
                        || record.record() instanceof AccessControlEntryRecord)) {
                    throw new MetadataParseException(file + " bootstraps with a "
                            + record.record().getClass().getSimpleName()
                            + "; Krabka bootstraps feature levels, SCRAM credentials and ACLs only");
                }
                records.add(record);
            }
        }
        return records;
    }
}
