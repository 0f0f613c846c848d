package io.krabka.bench;

import io.krabka.archive.ArchiveLayout;
import io.krabka.archive.verify.AmbiguousExpectedHeadException;
import io.krabka.archive.verify.ArchiveUnreadableException;
import io.krabka.archive.verify.ArchiveVerifier;
import io.krabka.archive.verify.ArchiveVerifyReport;
import io.krabka.archive.verify.PartitionVerifyReport;
import io.krabka.archive.verify.VerifyOptions;
import io.krabka.archive.verify.VerifyProgress;
import io.krabka.plugin.rsm.local.LocalObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * {@code krabka verify --deep} on one core against the JDK's SHA-256 on one core, over the very same files: an
 * archive the {@code worm} manager wrote once on the {@code local} store, 512 MiB of segments of
 * {@code segmentMiB} each with their indexes, snapshots and epoch checkpoints. An operation is one whole pass over
 * the archive, the same bytes on both sides, so the ratio of operations per second is the ratio of bytes hashed per
 * second; the setup prints how many bytes one pass hashes.
 *
 * <ul>
 *   <li>Krabka: {@link ArchiveVerifier#verify} with deep verification, parallelism 1, the signing key trusted:
 *       listing, every manifest read, its signature and chain link checked, every object re-read through the store
 *       and hashed.</li>
 *   <li>reference: the JDK's {@code MessageDigest} SHA-256 of each object's file, read with
 *       {@link Files#newInputStream} into one 1 MiB buffer, the verifier's size: nothing but the hashing.</li>
 * </ul>
 *
 * The files are in the page cache: both sides measure the CPU, not the disk.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class WormVerifyBenchmark {
    private static final int ARCHIVE_MIB = 512;
    /** The verifier's buffer ({@code ObjectDigester}). */
    private static final int READ_BUFFER_BYTES = 1 << 20;

    /** The archive, written once, the options verify gets, and the files of the objects it hashes. */
    @State(Scope.Benchmark)
    public static class Archive {
        @Param({"64"})
        int segmentMiB;

        Path directory;
        LocalObjectStore store;
        VerifyOptions options;
        List<Path> objects;

        @Setup(Level.Trial)
        public void write() throws Exception {
            directory = Scratch.create("worm-verify-");
            Path source = Files.createDirectory(directory.resolve("source"));
            SourceSegment segment = SourceSegment.write(source, segmentMiB << 20);
            store = new LocalObjectStore();
            store.configure(Map.of(
                    "dir", Files.createDirectory(directory.resolve("store")).toString()));
            int segments = Math.ceilDiv(ARCHIVE_MIB, segmentMiB);
            try (WormArchive archive = new WormArchive(store, directory.resolve("signing.pk8"))) {
                for (int index = 0; index < segments; index++) {
                    archive.manager().copyLogSegmentData(segment.newCopy(index), segment.data());
                }
                options = VerifyOptions.of(ArchiveLayout.underPrefix(""))
                        .withDeep(true)
                        .withParallelism(1)
                        .withTrustedKeys(archive.trustedKeys());
            }
            Scratch.delete(source); // the archive holds copies: only its files are read from now on
            // Every object but the manifests, which the verifier parses rather than hashes.
            try (Stream<Path> files = Files.walk(Path.of(store.location()))) {
                objects = files.filter(Files::isRegularFile)
                        .filter(file -> !file.getFileName().toString().endsWith("." + ArchiveLayout.MANIFEST_SUFFIX))
                        .sorted()
                        .toList();
            }
            check(segments);
        }

        /** One verification before measuring: the archive must verify whole, hashing exactly the reference's bytes. */
        private void check(int segments)
                throws IOException, ArchiveUnreadableException, AmbiguousExpectedHeadException {
            long bytes = 0;
            for (Path object : objects) {
                bytes += Files.size(object);
            }
            ArchiveVerifyReport report = ArchiveVerifier.verify(store, options, VerifyProgress.NONE);
            PartitionVerifyReport partition =
                    report.partitions().size() == 1 ? report.partitions().getFirst() : null;
            if (!report.ok()
                    || partition == null
                    || partition.manifests() != segments
                    || partition.untrustedManifests() + partition.unsignedManifests() != 0
                    || !partition.offsetGaps().isEmpty()
                    || report.orphanObjects() != 0
                    || partition.bytesChecked() != bytes
                    || partition.objectsChecked() != objects.size()) {
                throw new IllegalStateException("the archive of " + segments + " segments (" + objects.size()
                        + " objects, " + bytes + " bytes) did not verify as written: " + report);
            }
            System.out.printf(
                    "%n%d segments of %d MiB: %d objects, %d bytes hashed per operation%n",
                    segments, segmentMiB, objects.size(), bytes);
        }

        @TearDown(Level.Trial)
        public void delete() throws IOException {
            store.close();
            Scratch.delete(directory);
        }
    }

    /** The reference's digest and buffer, reused for every object as the verifier reuses its own. */
    @State(Scope.Thread)
    public static class Digester {
        final byte[] buffer = new byte[READ_BUFFER_BYTES];
        MessageDigest sha256;

        @Setup(Level.Trial)
        public void open() throws NoSuchAlgorithmException {
            sha256 = MessageDigest.getInstance("SHA-256");
        }
    }

    @Benchmark
    public ArchiveVerifyReport verifyKrabka(Archive archive)
            throws ArchiveUnreadableException, AmbiguousExpectedHeadException {
        return ArchiveVerifier.verify(archive.store, archive.options, VerifyProgress.NONE);
    }

    @Benchmark
    public void verifyJdkSha256(Archive archive, Digester digester, Blackhole digests) throws IOException {
        for (Path object : archive.objects) {
            digester.sha256.reset();
            try (InputStream in = Files.newInputStream(object)) {
                for (int read = in.read(digester.buffer); read >= 0; read = in.read(digester.buffer)) {
                    digester.sha256.update(digester.buffer, 0, read);
                }
            }
            digests.consume(digester.sha256.digest());
        }
    }
}
