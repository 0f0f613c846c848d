package io.krabka.kernel.tiered;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.metrics.MetricsRegistry;
import org.junit.jupiter.api.Test;

class RemoteFetchMetricsTest {

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
