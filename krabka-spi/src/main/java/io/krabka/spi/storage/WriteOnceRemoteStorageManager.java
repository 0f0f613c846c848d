package io.krabka.spi.storage;

/**
 * A remote storage manager whose objects are never deleted: a write-once archive. The kernel never asks it to
 * delete — remote retention and topic deletion stop at the archive — and where Kafka's contract would delete the
 * data of a copy that failed or was cut short by a crash (before the copy is retried under a fresh segment id),
 * the kernel calls {@link #abandonSegmentCopy} instead, so that the objects that stay can be told from foreign
 * ones.
 */
public interface WriteOnceRemoteStorageManager extends RemoteStorageManager {

    /**
     * Records that the copy of a segment will never finish: its objects, whatever reached the store, stay and are
     * recorded as abandoned. Idempotent: a copy abandoned already is left as it is.
     *
     * @param remoteLogSegmentMetadata the segment whose copy started and did not finish
     * @throws RemoteStorageException if the record cannot be written; the kernel retries later
     * @throws IllegalStateException  if the instance is closed
     */
    void abandonSegmentCopy(RemoteLogSegmentMetadata remoteLogSegmentMetadata) throws RemoteStorageException;

    /**
     * Refused: an archive deletes nothing.
     *
     * @throws RemoteStorageException always, while the instance is open
     * @throws IllegalStateException  if the instance is closed
     */
    @Override
    void deleteLogSegmentData(RemoteLogSegmentMetadata remoteLogSegmentMetadata) throws RemoteStorageException;
}
