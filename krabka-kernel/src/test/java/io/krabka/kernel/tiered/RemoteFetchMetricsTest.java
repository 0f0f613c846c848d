package io.krabka.kernel.tiered;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.metrics.MetricsRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RemoteFetchMetricsTest {

    @Test
    void remoteReadsAreTimedAsKafkasTimerInMilliseconds() {
        try (MetricsRegistry registry = MetricsRegistry.unpublished()) {
            RemoteFetchMetrics metrics = new RemoteFetchMetrics(registry);
            metrics.recordLatency("orders", TimeUnit.MICROSECONDS.toNanos(2500));
            String text = registry.prometheusText();
            String series = "kafka_log_remote_remotelogmanager_remotelogreaderfetchrateandtimems_";
            assertTrue(text.contains("# TYPE " + series + "count counter\n" + series + "count 1\n"), text);
            assertTrue(text.contains(series + "max 2.5\n"), text);
            assertTrue(text.contains(series + "oneminuterate "), text);
            assertEquals(2, metrics.topic("orders").latencySumMs(), "the counts keep whole milliseconds");
        }
    }

    @Test
    void aDeletedTopicsCountersLeaveTheRegistryAndComeBackFromZeroIfItIsReadAgain() {
        try (MetricsRegistry registry = MetricsRegistry.unpublished()) {
            RemoteFetchMetrics metrics = new RemoteFetchMetrics(registry);
            metrics.recordRequest("orders");
            metrics.recordBytes("orders", 100);
            metrics.recordRequest("payments");

            metrics.removeTopic("orders");

            String text = registry.prometheusText();
            assertFalse(text.contains("topic=\"orders\""), text);
            assertTrue(text.contains("topic=\"payments\""), text);
            assertEquals(2, metrics.total().requests(), "the totals keep what was counted");
            assertEquals(0, metrics.topic("orders").requests());

            metrics.recordBytes("orders", 7);
            assertEquals(7, metrics.topic("orders").bytes());
            assertTrue(registry.prometheusText().contains("topic=\"orders\""));
        }
    }
}
