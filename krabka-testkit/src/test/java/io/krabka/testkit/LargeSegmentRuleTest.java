package io.krabka.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.IOException;
import java.lang.ref.Reference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The large-segment rule tells streaming from buffering when the segment exceeds the heap. Surefire runs this class
 * alone in a JVM with {@code -Xmx64m} (execution {@code large-segment} in the pom), against a 96 MiB segment.
 */
class LargeSegmentRuleTest {

    private static final String RULE = "required_largeSegmentIsStreamedWithBoundedMemory";
    private static final int SEGMENT_BYTES = 96 << 20;

    static class Streaming extends RemoteStorageManagerConformance {
        @Override
        protected RemoteStorageManager createRemoteStorageManager(Path scratch) {
            return new ReferenceRemoteStorageManager(scratch);
        }

        @Override
        protected int largeSegmentBytes() {
            return SEGMENT_BYTES;
        }
    }

    /** Reads the whole log into memory before storing it. */
    static class Buffering extends Streaming {
        @Override
        protected RemoteStorageManager createRemoteStorageManager(Path scratch) {
            return new ForwardingRemoteStorageManager(new ReferenceRemoteStorageManager(scratch)) {
                @Override
                public Optional<CustomMetadata> copyLogSegmentData(
                        RemoteLogSegmentMetadata metadata, LogSegmentData data) throws RemoteStorageException {
                    try {
                        byte[] log = Files.readAllBytes(data.logSegment());
                        Optional<CustomMetadata> copied = delegate.copyLogSegmentData(metadata, data);
                        // Held through the copy, as a manager that buffers a whole segment holds it.
                        Reference.reachabilityFence(log);
                        return copied;
                    } catch (IOException e) {
                        throw new RemoteStorageException("buffering failed", e);
                    }
                }
            };
        }
    }

    @BeforeAll
    static void runsWithAHeapSmallerThanTheSegment() {
        assertTrue(
                Runtime.getRuntime().maxMemory() < SEGMENT_BYTES,
                "run this class with -Xmx below " + SEGMENT_BYTES
                        + " bytes, as the pom's large-segment execution does");
    }

    @Test
    void aStreamingImplementationPasses() {
        KitRun.only(Streaming.class, RULE).expect(Set.of(), Map.of());
    }

    @Test
    void aBufferingImplementationFailsAndTheReportSaysWhy() {
        KitRun run = KitRun.only(Buffering.class, RULE);
        run.expectFailed(RULE);
        assertTrue(run.messages().get(RULE).contains("must stream segments"), run::toString);
    }
}
