package io.krabka.kernel.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

class MetricsRegistryTest {

    private static final MetricName COPY_BYTES =
            MetricName.of("kafka.server", "BrokerTopicMetrics", "RemoteCopyBytesPerSec");

    @Test
    void publishesUnderKafkasObjectNameAndUnpublishesOnRemoval() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        MetricName name = COPY_BYTES.tagged("topic", "orders");
        ObjectName objectName =
                new ObjectName("kafka.server:type=BrokerTopicMetrics,name=RemoteCopyBytesPerSec," + "topic=orders");
        try (MetricsRegistry registry = MetricsRegistry.jmx()) {
            registry.meter(name, "bytes").mark(1500);
            registry.meter(name, "bytes").mark(500);
            assertEquals(2000L, server.getAttribute(objectName, "Count"));
            assertEquals("bytes", server.getAttribute(objectName, "EventType"));
            assertEquals(TimeUnit.SECONDS, server.getAttribute(objectName, "RateUnit"));
            registry.remove(name);
            assertFalse(server.isRegistered(objectName));
            registry.meter(name).mark(1);
            assertTrue(server.isRegistered(objectName));
        }
        assertFalse(server.isRegistered(objectName), "close unpublishes");
    }

    @Test
    void prometheusTextHasEveryAttributeWithItsLabels() {
        try (MetricsRegistry registry = MetricsRegistry.unpublished()) {
            AtomicLong lag = new AtomicLong(42);
            registry.gauge(
                    MetricName.of("kafka.server", "BrokerTopicMetrics", "RemoteCopyLagBytes")
                            .tagged("topic", "a\"b"),
                    lag::get);
            registry.meter(COPY_BYTES).mark(7);
            String text = registry.prometheusText();
            assertTrue(
                    text.contains("kafka_server_brokertopicmetrics_remotecopylagbytes_value{topic=\"a\\\"b\"} 42\n"),
                    text);
            assertTrue(text.contains("kafka_server_brokertopicmetrics_remotecopybytespersec_count 7\n"), text);
            lag.set(3);
            assertTrue(registry.prometheusText().contains("_remotecopylagbytes_value{topic=\"a\\\"b\"} 3\n"));
        }
    }

    @Test
    void aNameHoldsOneKindOfMetric() {
        try (MetricsRegistry registry = MetricsRegistry.unpublished()) {
            registry.meter(COPY_BYTES);
            assertThrows(IllegalArgumentException.class, () -> registry.histogram(COPY_BYTES));
        }
    }

    @Test
    void meterRatesFollowTheEventsPerTick() {
        AtomicLong nanos = new AtomicLong();
        Meter meter = new Meter("requests", null, nanos::get);
        for (int second = 0; second < 600; second++) {
            meter.mark(100);
            nanos.addAndGet(TimeUnit.SECONDS.toNanos(1));
        }
        var attributes = meter.attributes();
        assertEquals(60_000L, attributes.get("Count"));
        assertEquals(100.0, attributes.get("MeanRate").doubleValue(), 0.01);
        assertEquals(100.0, attributes.get("OneMinuteRate").doubleValue(), 1.0);
        // Ten minutes of a steady rate: the fifteen-minute average has not caught up from its first tick yet.
        assertEquals(100.0, attributes.get("FifteenMinuteRate").doubleValue(), 1.0);
        nanos.addAndGet(TimeUnit.MINUTES.toNanos(5));
        assertTrue(meter.attributes().get("OneMinuteRate").doubleValue() < 1.0, "idle for five minutes");
    }

    @Test
    void aMeterFollowingACountKeptElsewhereRatesItsGrowth() {
        AtomicLong nanos = new AtomicLong();
        AtomicLong kept = new AtomicLong(1_000);
        Meter meter = new Meter("bytes", kept::get, nanos::get);
        for (int second = 0; second < 120; second++) {
            kept.addAndGet(50);
            nanos.addAndGet(TimeUnit.SECONDS.toNanos(1));
        }
        assertEquals(7_000L, meter.attributes().get("Count"));
        assertEquals(50.0, meter.attributes().get("MeanRate").doubleValue(), 0.01);
        assertEquals(50.0, meter.attributes().get("OneMinuteRate").doubleValue(), 5.0);
    }
}
