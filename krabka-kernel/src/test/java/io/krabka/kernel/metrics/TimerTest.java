package io.krabka.kernel.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

class TimerTest {

    @Test
    void attributesAreYammersDurationsInMillisecondsAndTheCallRate() {
        AtomicLong nanos = new AtomicLong();
        Timer timer = new Timer(nanos::get, new SplittableRandom(1));
        for (int call = 1; call <= 100; call++) {
            timer.update(call, TimeUnit.MILLISECONDS);
            nanos.addAndGet(TimeUnit.SECONDS.toNanos(1));
        }
        timer.update(1500, TimeUnit.MICROSECONDS);
        timer.update(-1, TimeUnit.MILLISECONDS);
        var attributes = timer.attributes();
        assertEquals(
                List.of(
                        "Count",
                        "Min",
                        "Max",
                        "Mean",
                        "StdDev",
                        "50thPercentile",
                        "75thPercentile",
                        "95thPercentile",
                        "98thPercentile",
                        "99thPercentile",
                        "999thPercentile",
                        "MeanRate",
                        "OneMinuteRate",
                        "FiveMinuteRate",
                        "FifteenMinuteRate"),
                List.copyOf(attributes.keySet()));
        assertEquals(101L, attributes.get("Count"), "a negative duration is not counted, as Yammer's");
        assertEquals(101L, timer.count());
        assertEquals(1.0, attributes.get("Min"));
        assertEquals(100.0, attributes.get("Max"));
        assertEquals((5050 + 1.5) / 101, attributes.get("Mean").doubleValue(), 1e-9);
        // Sorted: 1, 1.5, 2, ..., 100 ms; position 0.5 * 102 = 51 is the 51st value, 50 ms.
        assertEquals(50.0, attributes.get("50thPercentile").doubleValue(), 1e-9);
        assertEquals(1.0, attributes.get("MeanRate").doubleValue(), 0.02, "a call a second");
        assertEquals(1.0, attributes.get("OneMinuteRate").doubleValue(), 0.05);
        assertEquals(
                Map.of("EventType", "calls", "RateUnit", TimeUnit.SECONDS, "LatencyUnit", TimeUnit.MILLISECONDS),
                timer.textAttributes());
    }

    @Test
    void onJmxATimerHasYammersAttributesAndTypes() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        MetricName name = MetricName.of("kafka.log.remote", "RemoteLogManager", "TimerTestFetchRateAndTimeMs");
        try (MetricsRegistry registry = MetricsRegistry.jmx()) {
            registry.timer(name).update(TimeUnit.MILLISECONDS.toNanos(7));
            ObjectName objectName = name.objectName();
            assertEquals(1L, server.getAttribute(objectName, "Count"));
            assertEquals(7.0, server.getAttribute(objectName, "99thPercentile"));
            assertEquals("calls", server.getAttribute(objectName, "EventType"));
            assertEquals(TimeUnit.SECONDS, server.getAttribute(objectName, "RateUnit"));
            assertEquals(TimeUnit.MILLISECONDS, server.getAttribute(objectName, "LatencyUnit"));
            Map<String, String> types = Arrays.stream(
                            server.getMBeanInfo(objectName).getAttributes())
                    .collect(Collectors.toMap(MBeanAttributeInfo::getName, MBeanAttributeInfo::getType));
            assertEquals("long", types.get("Count"));
            assertEquals("double", types.get("Mean"));
            assertEquals("double", types.get("FifteenMinuteRate"));
            assertEquals("java.lang.String", types.get("EventType"));
            assertEquals("java.util.concurrent.TimeUnit", types.get("LatencyUnit"));
            assertEquals(18, types.size(), "15 numbers and 3 texts");
        }
    }
}
