package io.krabka.bench;

import io.krabka.objectstore.ObjectStoreRemoteStorageManager;
import io.krabka.objectstore.SegmentObjectKeys;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import io.krabka.testkit.ObjectStores;
import io.krabka.testservers.Radosgw;
import io.krabka.testservers.S3Server;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@link WormCopyBenchmark}'s pair over Ceph radosgw instead of a directory: the write-once archive's copy against
 * the plain object-store tier's, both over one {@code s3} object store on one plain bucket, {@code copyLogSegmentData}
 * of one segment of {@code segmentMiB} with its indexes, snapshot and epoch checkpoint, a fresh segment id each
 * operation.
 *
 * <ul>
 *   <li>Krabka: the {@code worm} manager, signing: each file hashed beside its upload, created under
 *       {@code If-None-Match: *}, then the signed manifest chained to the one before.</li>
 *   <li>reference: {@link ObjectStoreRemoteStorageManager}, the tier the s3 plugin is built on, uploading the same
 *       files as replacing puts.</li>
 * </ul>
 *
 * The store's settings are the one thing both sides share: radosgw's test user, path-style, plain http on 127.0.0.1,
 * checksums only where required (radosgw 16), multipart at its defaults (one PUT below 100 MiB, else 16 MiB parts,
 * four at once). The bucket has no Object Lock, so the archive runs with {@code allow.unenforced.retention=true}: a
 * speed comparison, not an archive radosgw protects. The radosgw is the JVM's ({@link Radosgw}: started on first use,
 * or {@code KRABKA_RGW_ENDPOINT}); its OSD keeps data in RAM, so after every operation, outside the measured time,
 * every object of the bucket is deleted from outside with the S3 client, on both sides alike (the archive itself
 * deletes nothing).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class WormS3CopyBenchmark {

    /** The source segment, the radosgw, a bucket of its own there, the store over it and an S3 client beside it. */
    @State(Scope.Benchmark)
    public static class Store {
        @Param({"64", "256"})
        int segmentMiB;

        Path directory;
        SourceSegment source;
        S3Client client;
        String bucket;
        ObjectStore store;

        @Setup(Level.Trial)
        public void open() throws IOException, RemoteStorageException {
            directory = Scratch.create("worm-s3-copy-");
            source = SourceSegment.write(Files.createDirectory(directory.resolve("source")), segmentMiB << 20);
            S3Server server = Radosgw.get();
            client = server.client();
            bucket = "worm-s3-copy-" + ProcessHandle.current().pid();
            client.createBucket(b -> b.bucket(bucket));
            store = ObjectStores.open(
                    "s3",
                    Map.of(
                            "bucket",
                            bucket,
                            "endpoint",
                            server.endpoint().toString(),
                            "path.style.access",
                            "true",
                            "allow.http",
                            "true",
                            "access.key.id",
                            server.accessKeyId(),
                            "secret.access.key",
                            server.secretAccessKey(),
                            "checksum.calculation",
                            "when_required"));
        }

        /** Deletes every object of the bucket, from outside the store: what the archive never does itself. */
        void deleteObjects() {
            List<S3Object> objects = client.listObjectsV2Paginator(b -> b.bucket(bucket)).contents().stream()
                    .toList();
            for (S3Object object : objects) {
                client.deleteObject(b -> b.bucket(bucket).key(object.key()));
            }
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            store.close();
            deleteObjects();
            client.deleteBucket(b -> b.bucket(bucket));
            client.close();
            Scratch.delete(directory);
        }
    }

    /** The archive over the store. */
    @State(Scope.Benchmark)
    public static class Archive {
        WormArchive archive;

        @Setup(Level.Trial)
        public void open(Store store) throws IOException {
            archive = new WormArchive(store.store, "s3", store.directory.resolve("signing.pk8"));
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            archive.close();
        }
    }

    /** The plain tier over the store. */
    @State(Scope.Benchmark)
    public static class Plain {
        RemoteStorageManager tier;

        @Setup(Level.Trial)
        public void open(Store store) {
            tier = new ObjectStoreRemoteStorageManager(configs ->
                    new ObjectStoreRemoteStorageManager.Tier(store.store, SegmentObjectKeys.underPrefix("")));
            tier.configure(Map.of());
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            tier.close();
        }
    }

    /** The metadata of the next copy; its objects deleted after it. */
    @State(Scope.Thread)
    public static class Copy {
        RemoteLogSegmentMetadata metadata;

        @Setup(Level.Invocation)
        public void next(Store store) {
            metadata = store.source.newCopy();
        }

        @TearDown(Level.Invocation)
        public void delete(Store store) {
            store.deleteObjects();
        }
    }

    @Benchmark
    public Object copyKrabka(Store store, Archive archive, Copy copy) throws RemoteStorageException {
        return archive.archive.manager().copyLogSegmentData(copy.metadata, store.source.data());
    }

    @Benchmark
    public Object copyPlainTier(Store store, Plain plain, Copy copy) throws RemoteStorageException {
        return plain.tier.copyLogSegmentData(copy.metadata, store.source.data());
    }
}
