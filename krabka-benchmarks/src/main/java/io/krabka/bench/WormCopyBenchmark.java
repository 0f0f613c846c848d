package io.krabka.bench;

import io.krabka.objectstore.ObjectStoreRemoteStorageManager;
import io.krabka.objectstore.SegmentObjectKeys;
import io.krabka.plugin.rsm.local.LocalObjectStore;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The write-once archive's copy against the plain object-store tier's, over the same {@code local} object store:
 * {@code copyLogSegmentData} of one 64 MiB segment with its indexes, snapshot and epoch checkpoint, a fresh segment
 * id each operation.
 *
 * <ul>
 *   <li>Krabka: the {@code worm} manager, signing: each file hashed, written create-only, then the signed manifest
 *       chained to the one before.</li>
 *   <li>reference: {@link ObjectStoreRemoteStorageManager}, the tier the s3 and gcs plugins are built on, writing
 *       the same files as replacing puts.</li>
 * </ul>
 *
 * The store is the one setting both sides share, and it does the same durable work for every object on each side:
 * a temporary file, forced, moved into place (renamed for a put, hard-linked for a create), the directory forced.
 * The archive deletes nothing, so after every operation, outside the measured time, the store's files are deleted
 * from outside on both sides and their directories forced; the partition's directory stays, as in a tier in use.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class WormCopyBenchmark {

    /** The source segment and the store, in one scratch directory. */
    @State(Scope.Benchmark)
    public static class Store {
        Path directory;
        SourceSegment source;
        LocalObjectStore store;

        @Setup(Level.Trial)
        public void open() throws IOException {
            directory = Scratch.create("worm-copy-");
            source = SourceSegment.write(Files.createDirectory(directory.resolve("source")));
            store = new LocalObjectStore();
            store.configure(Map.of(
                    "dir", Files.createDirectory(directory.resolve("store")).toString()));
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            store.close();
            Scratch.delete(directory);
        }
    }

    /** The archive over the store. */
    @State(Scope.Benchmark)
    public static class Archive {
        WormArchive archive;

        @Setup(Level.Trial)
        public void open(Store store) throws IOException {
            archive = new WormArchive(store.store, store.directory.resolve("signing.pk8"));
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
        public void delete(Store store) throws IOException {
            Scratch.deleteFiles(Path.of(store.store.location()));
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
