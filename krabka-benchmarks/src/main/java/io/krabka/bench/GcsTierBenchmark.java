package io.krabka.bench;

import com.google.cloud.NoCredentials;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import io.krabka.fixture.gcs.GcsFixture;
import io.krabka.plugin.rsm.gcs.GcsRemoteStorageManagerProvider;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
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

/**
 * The {@code gcs} plugin against the google-cloud-storage client it is built on, both on the GCS fixture
 * ({@code krabka-gcs-fixture}, in this JVM, on 127.0.0.1): the ratio is what the plugin adds, not GCS's speed.
 * An operation is one segment of {@code segmentMiB}.
 *
 * <ul>
 *   <li>copy: {@code copyLogSegmentData} of the segment and its small files, the plugin's settings at their defaults
 *       (one request below 8 MiB, a resumable upload in 8 MiB chunks above), against the client uploading the
 *       same files with {@code Storage.createFrom} each (its own choice of one request or a resumable upload),
 *       without gzip as the plugin sends them.</li>
 *   <li>fetch: {@code fetchLogSegment(metadata, 0)} read to the end, against the client's {@code Storage.reader}
 *       of the very same object read to the end, both with one 64 KiB buffer.</li>
 * </ul>
 *
 * Each copy is deleted after its invocation, outside the measured time.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 5)
@Measurement(iterations = 3, time = 5)
@Fork(1)
public class GcsTierBenchmark {
    private static final int READ_BUFFER_BYTES = 64 << 10;
    private static final String BUCKET = "bench";
    /** As the plugin sends them: the client would gzip request bodies, which costs more than it saves on segments. */
    private static final Storage.BlobWriteOption NO_GZIP = Storage.BlobWriteOption.disableGzipContent();

    /** The fixture, the plugin and a client on it, and the source segment. */
    @State(Scope.Benchmark)
    public static class Tier {
        @Param({"1", "64", "512"})
        int segmentMiB;

        Path directory;
        SourceSegment source;
        GcsFixture fixture;
        RemoteStorageManager plugin;
        Storage client;

        @Setup(Level.Trial)
        public void open() throws IOException {
            directory = Scratch.create("gcs-");
            source = SourceSegment.write(Files.createDirectory(directory.resolve("source")), segmentMiB << 20);
            fixture = GcsFixture.start();
            fixture.createBucket(BUCKET, false, null);
            plugin = new GcsRemoteStorageManagerProvider().create();
            plugin.configure(Map.of(
                    "bucket",
                    BUCKET,
                    "prefix",
                    "plugin",
                    "endpoint",
                    fixture.endpoint(),
                    "no.credentials",
                    true,
                    "project.id",
                    "bench"));
            client = StorageOptions.newBuilder()
                    .setHost(fixture.endpoint())
                    .setProjectId("bench")
                    .setCredentials(NoCredentials.getInstance())
                    .build()
                    .getService();
        }

        @TearDown(Level.Trial)
        public void close() throws Exception {
            plugin.close();
            client.close();
            fixture.close();
            Scratch.delete(directory);
        }
    }

    /** The segment id of the next plugin copy, deleted after it. */
    @State(Scope.Thread)
    public static class PluginCopy {
        RemoteLogSegmentMetadata metadata;

        @Setup(Level.Invocation)
        public void next(Tier tier) {
            metadata = tier.source.newCopy();
        }

        @TearDown(Level.Invocation)
        public void delete(Tier tier) throws RemoteStorageException {
            tier.plugin.deleteLogSegmentData(metadata);
        }
    }

    /** The objects of the next client copy, deleted after it. */
    @State(Scope.Thread)
    public static class ClientCopy {
        final List<BlobId> objects = new ArrayList<>();
        String prefix;

        @Setup(Level.Invocation)
        public void next() {
            prefix = "client/" + UUID.randomUUID() + "/";
        }

        @TearDown(Level.Invocation)
        public void delete(Tier tier) {
            for (BlobId object : objects) {
                tier.client.delete(object); // one by one: the fixture does not serve batch requests
            }
            objects.clear();
        }
    }

    /** One segment copied by the plugin, and the object of its {@code .log}. */
    @State(Scope.Benchmark)
    public static class Copied {
        RemoteLogSegmentMetadata metadata;
        BlobId log;

        @Setup(Level.Trial)
        public void copy(Tier tier) throws IOException, RemoteStorageException {
            metadata = tier.source.newCopy();
            tier.plugin.copyLogSegmentData(metadata, tier.source.data());
            List<BlobId> logs = new ArrayList<>();
            tier.client
                    .list(BUCKET, Storage.BlobListOption.prefix("plugin/"))
                    .iterateAll()
                    .forEach(blob -> {
                        if (blob.getName().endsWith(".log")) {
                            logs.add(blob.getBlobId());
                        }
                    });
            if (logs.size() != 1) {
                throw new IllegalStateException("expected one .log in the tier, found " + logs);
            }
            log = logs.getFirst();
            long viaPlugin = drain(tier.plugin.fetchLogSegment(metadata, 0), new byte[READ_BUFFER_BYTES]);
            long viaClient = drain(Channels.newInputStream(tier.client.reader(log)), new byte[READ_BUFFER_BYTES]);
            if (viaPlugin != tier.source.logBytes() || viaClient != tier.source.logBytes()) {
                throw new IllegalStateException("the plugin served " + viaPlugin + " bytes and the client " + viaClient
                        + ", not the " + tier.source.logBytes() + " copied");
            }
        }
    }

    /** Each thread's read buffer. */
    @State(Scope.Thread)
    public static class Buffer {
        final byte[] bytes = new byte[READ_BUFFER_BYTES];
    }

    @Benchmark
    public void copyKrabka(Tier tier, PluginCopy copy) throws RemoteStorageException {
        tier.plugin.copyLogSegmentData(copy.metadata, tier.source.data());
    }

    @Benchmark
    public void copyClient(Tier tier, ClientCopy copy) throws IOException {
        for (Map.Entry<String, Path> file : tier.source.files().entrySet()) {
            BlobId id = BlobId.of(BUCKET, copy.prefix + file.getKey());
            tier.client.createFrom(BlobInfo.newBuilder(id).build(), file.getValue(), NO_GZIP);
            copy.objects.add(id);
        }
    }

    @Benchmark
    public long fetchKrabka(Tier tier, Copied copied, Buffer buffer) throws IOException, RemoteStorageException {
        return drain(tier.plugin.fetchLogSegment(copied.metadata, 0), buffer.bytes);
    }

    @Benchmark
    public long fetchClient(Tier tier, Copied copied, Buffer buffer) throws IOException {
        return drain(Channels.newInputStream(tier.client.reader(copied.log)), buffer.bytes);
    }

    /** Reads a stream to its end and closes it; the number of bytes read. */
    private static long drain(InputStream stream, byte[] buffer) throws IOException {
        try (stream) {
            long total = 0;
            for (int read; (read = stream.read(buffer)) != -1; ) {
                total += read;
            }
            return total;
        }
    }
}
