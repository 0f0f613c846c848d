package io.krabka.plugin.rsm.gcs;

import com.google.cloud.storage.Blob;
import com.google.cloud.storage.Bucket;
import com.google.cloud.storage.Storage;
import io.krabka.spi.objectstore.RetentionMode;
import io.krabka.spi.objectstore.StoreProtection;
import io.krabka.spi.objectstore.StoredObject;
import io.krabka.spi.storage.RemoteStorageException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A bucket's retention policy (Bucket Lock) as the store reports it. A locked policy is {@link
 * RetentionMode#COMPLIANCE}: GCS lets no one remove or shorten it. An unlocked one is {@link
 * RetentionMode#GOVERNANCE}: whoever may update the bucket may remove it. An object's own retention (Object
 * Retention Lock) and holds are not read: an object held only by them is reported as {@link RetentionMode#NONE}.
 */
final class GcsBucketRetention {
    private final Storage storage;
    private final String bucket;
    /**
     * Set once a locked policy is seen: a lock is never undone, so from then on no object's mode needs the bucket
     * read again. An unlocked policy may be locked or removed at any time, so it is read each time it matters.
     */
    private volatile boolean lockSeen;

    GcsBucketRetention(Storage storage, String bucket) {
        this.storage = storage;
        this.bucket = bucket;
    }

    /**
     * What the bucket enforces: versioning, and its retention policy.
     *
     * @throws RemoteStorageException if the bucket is missing or cannot be read ({@code storage.buckets.get})
     */
    StoreProtection protection() throws RemoteStorageException {
        Bucket metadata = read();
        boolean versioned = Boolean.TRUE.equals(metadata.versioningEnabled());
        Duration period = metadata.getRetentionPeriodDuration();
        String versioning = versioned ? "object versioning on" : "object versioning off";
        if (period == null || period.isZero()) {
            return new StoreProtection(
                    location(), versioned, RetentionMode.NONE, Optional.empty(), "no retention policy, " + versioning);
        }
        boolean locked = Boolean.TRUE.equals(metadata.retentionPolicyIsLocked());
        return new StoreProtection(
                location(),
                versioned,
                locked ? RetentionMode.COMPLIANCE : RetentionMode.GOVERNANCE,
                Optional.of(period),
                "retention policy " + describe(period) + ", " + (locked ? "locked" : "not locked") + ", " + versioning);
    }

    /**
     * The objects as stored, each with the retention that holds it now: the bucket's policy's mode until the
     * object's {@code retentionExpirationTime}. The bucket is read at most once for all of them.
     */
    List<StoredObject> describe(List<Blob> blobs, boolean createPrecondition) throws RemoteStorageException {
        Instant now = Instant.now();
        RetentionMode policy = null;
        ArrayList<StoredObject> objects = new ArrayList<>(blobs.size());
        for (Blob blob : blobs) {
            Optional<Instant> until = Optional.ofNullable(blob.getRetentionExpirationTimeOffsetDateTime())
                    .map(OffsetDateTime::toInstant)
                    .filter(now::isBefore);
            RetentionMode mode = RetentionMode.NONE;
            if (until.isPresent()) {
                policy = policy != null ? policy : policyMode();
                mode = policy;
            }
            objects.add(new StoredObject(
                    blob.getName(),
                    blob.getSize() == null ? 0 : blob.getSize(),
                    Optional.ofNullable(blob.getEtag() != null ? blob.getEtag() : blob.getMd5()),
                    Optional.ofNullable(blob.getGeneration()).map(String::valueOf),
                    mode,
                    mode == RetentionMode.NONE ? Optional.empty() : until,
                    createPrecondition));
        }
        return objects;
    }

    /** One object as stored; as {@link #describe(List, boolean)}. */
    StoredObject describe(Blob blob, boolean createPrecondition) throws RemoteStorageException {
        return describe(List.of(blob), createPrecondition).getFirst();
    }

    private RetentionMode policyMode() throws RemoteStorageException {
        if (lockSeen) {
            return RetentionMode.COMPLIANCE;
        }
        Bucket metadata = read();
        Duration period = metadata.getRetentionPeriodDuration();
        if (period == null || period.isZero()) {
            return RetentionMode.NONE; // the policy was removed since the object's expiration time was computed
        }
        if (Boolean.TRUE.equals(metadata.retentionPolicyIsLocked())) {
            lockSeen = true;
            return RetentionMode.COMPLIANCE;
        }
        return RetentionMode.GOVERNANCE;
    }

    private Bucket read() throws RemoteStorageException {
        Bucket metadata;
        try {
            metadata = storage.get(bucket);
        } catch (RuntimeException e) {
            throw new RemoteStorageException(
                    "GCS bucket \"" + bucket + "\": reading its metadata (storage.buckets.get) " + "failed: "
                            + GcsErrors.describe(e),
                    e);
        }
        if (metadata == null) {
            throw new RemoteStorageException("GCS bucket \"" + bucket
                    + "\": reading its metadata (storage.buckets.get) " + "failed: the bucket does not exist");
        }
        return metadata;
    }

    private String location() {
        return "gs://" + bucket;
    }

    /** "30 days", "12 hours", "90 seconds": GCS keeps periods in seconds. */
    static String describe(Duration period) {
        long seconds = period.toSeconds();
        if (seconds % 86_400 == 0) {
            return plural(seconds / 86_400, "day");
        }
        if (seconds % 3_600 == 0) {
            return plural(seconds / 3_600, "hour");
        }
        return plural(seconds, "second");
    }

    private static String plural(long n, String unit) {
        return n + " " + unit + (n == 1 ? "" : "s");
    }
}
