package io.krabka.plugin.rsm.s3;

import io.krabka.spi.storage.RemoteStorageManager;
import io.krabka.testservers.Radosgw;
import io.krabka.testservers.S3Server;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Not a test: copy and fetch of one segment through the plugin against the SDK's own PutObject and GetObject of the
 * same bytes, same client settings, on radosgw; the medians and their ratio. Run by {@code plugin-rsm-s3/bench}.
 * Arguments: segment sizes in MiB (default 1 64), and plugin settings as {@code key=value} (e.g.
 * {@code multipart.concurrency=1}).
 */
public final class S3TierBenchmark {
    private S3TierBenchmark() {}

    public static void main(String[] args) throws Exception {
        List<Integer> sizes = new ArrayList<>();
        Map<String, Object> more = new HashMap<>();
        for (String arg : args) {
            int equals = arg.indexOf('=');
            if (equals < 0) {
                sizes.add(Integer.parseInt(arg));
            } else {
                more.put(arg.substring(0, equals), arg.substring(equals + 1));
            }
        }
        if (sizes.isEmpty()) {
            sizes = List.of(1, 64);
        }
        S3Server server = Radosgw.get();
        String bucket = "bench-" + ProcessHandle.current().pid();
        Path local = Files.createTempDirectory("s3-bench");
        try (S3Client admin = server.client()) {
            admin.createBucket(b -> b.bucket(bucket));
        }
        Map<String, Object> settings = S3Settings.of(server, server.endpoint(), bucket, "bench");
        settings.putAll(more);
        S3StorageConfig config = S3StorageConfig.parse(settings);
        System.out.printf("%-8s %-6s %12s %12s %8s%n", "segment", "op", "plugin ms", "raw SDK ms", "ratio");
        try (S3Client raw = S3Clients.create(config.store());
                RemoteStorageManager rsm = new S3RemoteStorageManagerProvider().create()) {
            rsm.configure(settings);
            for (int mib : sizes) {
                TestSegment segment = TestSegment.write(local.resolve(mib + "m"), (long) mib << 20);
                int rounds = mib <= 1 ? 20 : mib <= 64 ? 6 : 3;
                long[] copy = new long[rounds];
                long[] put = new long[rounds];
                long[] fetch = new long[rounds];
                long[] get = new long[rounds];
                for (int i = -1; i < rounds; i++) {
                    // Round -1 warms up; each round copies, fetches and deletes, so the OSD's memory stays flat.
                    TestSegment s = segment;
                    long t0 = System.nanoTime();
                    rsm.copyLogSegmentData(s.metadata(), s.data());
                    long t1 = System.nanoTime();
                    try (InputStream in = rsm.fetchLogSegment(s.metadata(), 0)) {
                        in.transferTo(OutputStream.nullOutputStream());
                    }
                    long t2 = System.nanoTime();
                    rsm.deleteLogSegmentData(s.metadata());
                    long t2b = System.nanoTime();
                    raw.putObject(
                            b -> b.bucket(bucket).key("raw/" + mib),
                            RequestBody.fromFile(s.data().logSegment()));
                    long t3 = System.nanoTime();
                    try (InputStream in = raw.getObject(b -> b.bucket(bucket).key("raw/" + mib))) {
                        in.transferTo(OutputStream.nullOutputStream());
                    }
                    long t4 = System.nanoTime();
                    raw.deleteObject(b -> b.bucket(bucket).key("raw/" + mib));
                    if (i >= 0) {
                        copy[i] = t1 - t0;
                        fetch[i] = t2 - t1;
                        put[i] = t3 - t2b;
                        get[i] = t4 - t3;
                    }
                }
                row(mib, "copy", copy, put);
                row(mib, "fetch", fetch, get);
            }
        } finally {
            try (S3Client admin = server.client()) {
                admin.deleteBucket(b -> b.bucket(bucket));
            }
        }
        System.exit(0);
    }

    private static void row(int mib, String op, long[] plugin, long[] raw) {
        double p = median(plugin) / 1e6;
        double r = median(raw) / 1e6;
        System.out.printf("%-8s %-6s %12.1f %12.1f %8.2f%n", mib + " MiB", op, p, r, p / r);
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length % 2 == 1
                ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2.0;
    }
}
