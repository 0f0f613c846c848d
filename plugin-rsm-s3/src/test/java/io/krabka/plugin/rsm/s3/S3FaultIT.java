package io.krabka.plugin.rsm.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.objectstore.SegmentArtifact;
import io.krabka.objectstore.SegmentObjectKeys;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import io.krabka.testservers.FaultProxy;
import io.krabka.testservers.FaultProxy.Delay;
import io.krabka.testservers.FaultProxy.HttpStatus;
import io.krabka.testservers.FaultProxy.Reset;
import io.krabka.testservers.RadosgwBuckets;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The plugin behind a {@link FaultProxy} in front of radosgw: connection resets, 5xx answers and slow answers are
 * retried away; a transfer cut in the middle leaves no object and no multipart upload; failures that outlast the
 * retries reach the caller as {@link RemoteStorageException}s. Arming the proxy closes the client's pooled
 * connections (a copy's parallel index uploads leave up to five), and a request may spend an attempt on each
 * before it meets a queued fault: the retry counts allow for that.
 */
class S3FaultIT {
    @RegisterExtension
    static final RadosgwBuckets RGW = new RadosgwBuckets();

    @TempDir
    Path local;

    private FaultProxy proxy;
    private String prefix;

    @BeforeEach
    void proxy() throws IOException {
        proxy = FaultProxy.to(RGW.server().endpoint());
        prefix = "faults/" + local.getFileName();
    }

    @AfterEach
    void closeProxy() throws IOException {
        proxy.close();
    }

    private RemoteStorageManager plugin(int retries, Map<String, Object> more) {
        Map<String, Object> settings = S3Settings.of(RGW.server(), proxy.endpoint(), RGW.bucket(), prefix);
        settings.put(S3StoreConfig.RETRIES, retries);
        settings.putAll(more);
        RemoteStorageManager rsm = new S3RemoteStorageManagerProvider().create();
        rsm.configure(settings);
        return rsm;
    }

    @Test
    void resetsAnd5xxAnswersAreRetried() throws Exception {
        TestSegment segment = TestSegment.write(local, 200_000);
        try (RemoteStorageManager rsm = plugin(10, Map.of())) {
            proxy.fail(new Reset(), new HttpStatus(503), new Reset());
            rsm.copyLogSegmentData(segment.metadata(), segment.data());
            proxy.fail(new HttpStatus(500), new Reset(), new HttpStatus(503));
            assertArrayEquals(segment.logSha256(), TestSegment.sha256(rsm.fetchLogSegment(segment.metadata(), 0)));
        }
    }

    @Test
    void aSlowAnswerIsRetriedAfterTheAttemptTimeout() throws Exception {
        TestSegment segment = TestSegment.write(local, 10_000);
        try (RemoteStorageManager rsm = plugin(8, Map.of(S3StoreConfig.API_CALL_ATTEMPT_TIMEOUT_MS, 1_000L))) {
            rsm.copyLogSegmentData(segment.metadata(), segment.data());
            proxy.fail(new Delay(Duration.ofSeconds(5)));
            assertArrayEquals(segment.logSha256(), TestSegment.sha256(rsm.fetchLogSegment(segment.metadata(), 0)));
        }
    }

    @Test
    void failuresThatOutlastTheRetriesAreStorageErrors() throws Exception {
        TestSegment segment = TestSegment.write(local, 10_000);
        try (RemoteStorageManager rsm = plugin(1, Map.of())) {
            proxy.fail(times(40, new Reset()));
            RemoteStorageException copy = assertThrows(
                    RemoteStorageException.class, () -> rsm.copyLogSegmentData(segment.metadata(), segment.data()));
            assertFalse(copy instanceof RemoteResourceNotFoundException, copy.toString());
            proxy.heal();
            rsm.copyLogSegmentData(segment.metadata(), segment.data());
            proxy.fail(times(40, new HttpStatus(503)));
            RemoteStorageException fetch = assertThrows(
                    RemoteStorageException.class, () -> rsm.fetchIndex(segment.metadata(), IndexType.OFFSET));
            assertFalse(fetch instanceof RemoteResourceNotFoundException, fetch.toString());
            proxy.heal();
            proxy.fail(times(40, new Reset()));
            assertThrows(RemoteStorageException.class, () -> rsm.deleteLogSegmentData(segment.metadata()));
        }
    }

    /** More faults than a copy's parallel uploads can spend attempts on. */
    private static FaultProxy.Fault[] times(int n, FaultProxy.Fault fault) {
        FaultProxy.Fault[] faults = new FaultProxy.Fault[n];
        Arrays.fill(faults, fault);
        return faults;
    }

    @Test
    void aMultipartUploadCutInTheMiddleLeavesNoObjectAndNoUpload() throws Exception {
        TestSegment segment = TestSegment.write(local, 12L << 20);
        String logKey = new SegmentObjectKeys(prefix).key(segment.metadata(), SegmentArtifact.SEGMENT);
        try (RemoteStorageManager rsm = plugin(
                0,
                Map.of(
                        S3StoreConfig.MULTIPART_THRESHOLD_BYTES,
                        5L << 20,
                        S3StoreConfig.MULTIPART_PART_SIZE_BYTES,
                        5L << 20))) {
            // The indexes (a few hundred bytes each) pass; 3 MiB into the connection that carries the parts,
            // after the upload's creation, it is cut.
            proxy.cutFirstTransferOver(3L << 20);
            RemoteStorageException e = assertThrows(
                    RemoteStorageException.class, () -> rsm.copyLogSegmentData(segment.metadata(), segment.data()));
            assertTrue(e.getMessage().contains("UploadPart"), e.getMessage());
            assertEquals(1, proxy.cuts());
            try (S3Client s3 = RGW.server().client()) {
                List<String> left =
                        s3.listObjectsV2Paginator(b -> b.bucket(RGW.bucket()).prefix(prefix)).contents().stream()
                                .map(o -> o.key())
                                .toList();
                assertEquals(List.of(), left, "a failed copy removes what it uploaded");
                assertEquals(
                        List.of(),
                        s3.listMultipartUploads(b -> b.bucket(RGW.bucket()).prefix(logKey))
                                .uploads(),
                        "the cut upload is aborted");
            }
            assertInstanceOf(
                    RemoteResourceNotFoundException.class,
                    assertThrows(RemoteStorageException.class, () -> rsm.fetchLogSegment(segment.metadata(), 0)));
        }
    }

    @Test
    void aSinglePutCutInTheMiddleLeavesNoObject() throws Exception {
        TestSegment segment = TestSegment.write(local, 3L << 20);
        try (RemoteStorageManager rsm = plugin(0, Map.of())) {
            // The plugin's connection from its access check stays pooled: the cut takes whichever carries the log.
            proxy.cutFirstTransferOver(1L << 20);
            assertThrows(
                    RemoteStorageException.class, () -> rsm.copyLogSegmentData(segment.metadata(), segment.data()));
            assertEquals(1, proxy.cuts());
            try (S3Client s3 = RGW.server().client()) {
                assertEquals(
                        0,
                        s3.listObjectsV2(b -> b.bucket(RGW.bucket()).prefix(prefix))
                                .keyCount());
            }
        }
    }
}
