package io.krabka.kernel.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {

    private static final MetricName COPY_BYTES = MetricName.brokerTopicMetric("RemoteCopyBytesPerSec");
    private static final MetricName FETCH_TIME =
            MetricName.of("kafka.log.remote", "RemoteLogManager", "RemoteLogReaderFetchRateAndTimeMs");
    private static final MetricName LAG = MetricName.brokerTopicMetric("RemoteCopyLagBytes");

    @Test
    void eachFamilyHasItsHelpAndTypeBeforeTheSamplesOfEveryTopic() {
        try (MetricsRegistry registry = MetricsRegistry.unpublished()) {
            registry.meter(COPY_BYTES.forTopic("orders"), "bytes").mark(5);
            registry.meter(COPY_BYTES, "bytes").mark(7);
            registry.meter(COPY_BYTES.forTopic("payments"), "bytes").mark(2);
            registry.timer(FETCH_TIME).update(3, TimeUnit.MILLISECONDS);
            registry.gauge(LAG.forTopic("orders"), () -> 42);
            String text = registry.prometheusText();
            assertTrue(text.contains("""
                            # HELP kafka_server_brokertopicmetrics_remotecopybytespersec_count Count of \
                            kafka.server:type=BrokerTopicMetrics,name=RemoteCopyBytesPerSec
                            # TYPE kafka_server_brokertopicmetrics_remotecopybytespersec_count counter
                            kafka_server_brokertopicmetrics_remotecopybytespersec_count{topic="orders"} 5
                            kafka_server_brokertopicmetrics_remotecopybytespersec_count{topic="payments"} 2
                            kafka_server_brokertopicmetrics_remotecopybytespersec_count 7
                            # HELP kafka_server_brokertopicmetrics_remotecopybytespersec_meanrate MeanRate of \
                            kafka.server:type=BrokerTopicMetrics,name=RemoteCopyBytesPerSec
                            # TYPE kafka_server_brokertopicmetrics_remotecopybytespersec_meanrate gauge
                            """), text);
            assertTrue(
                    text.contains("# TYPE kafka_server_brokertopicmetrics_remotecopybytespersec_oneminuterate gauge\n"),
                    text);
            assertTrue(text.contains("""
                            # TYPE kafka_log_remote_remotelogmanager_remotelogreaderfetchrateandtimems_99thpercentile gauge
                            kafka_log_remote_remotelogmanager_remotelogreaderfetchrateandtimems_99thpercentile 3.0
                            """), text);
            assertTrue(text.contains("""
                            # TYPE kafka_server_brokertopicmetrics_remotecopylagbytes_value gauge
                            kafka_server_brokertopicmetrics_remotecopylagbytes_value{topic="orders"} 42
                            """), text);
            assertFalse(text.contains("calls"), "text attributes stay on JMX:\n" + text);
            assertFollowsTheTextFormat(text);
        }
    }

    @Test
    void labelValuesAndOddNumbersAreWrittenAsTheFormatWants() {
        try (MetricsRegistry registry = MetricsRegistry.unpublished()) {
            registry.gauge(LAG.tagged("logDirectory", "/a\\b\"c\nd"), () -> 1);
            String text = registry.prometheusText();
            assertTrue(text.contains("{logDirectory=\"/a\\\\b\\\"c\\nd\"} 1\n"), text);
            assertFollowsTheTextFormat(text);
        }
        assertEquals("NaN", PrometheusText.number(Double.NaN));
        assertEquals("+Inf", PrometheusText.number(Double.POSITIVE_INFINITY));
        assertEquals("-Inf", PrometheusText.number(Double.NEGATIVE_INFINITY));
        assertEquals("1.0E-4", PrometheusText.number(1e-4));
    }

    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABELS =
            Pattern.compile("\\{[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n]|\\\\[\\\\\"n])*\""
                    + "(?:,[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n]|\\\\[\\\\\"n])*\")*\\}");
    private static final Pattern SAMPLE = Pattern.compile("(" + NAME + ")(" + LABELS + ")? (\\S+)");
    private static final Pattern FLOAT = Pattern.compile("[+-]?(?:Inf|NaN|\\d+(?:\\.\\d+)?(?:E-?\\d+)?)");
    private static final Set<String> TYPES = Set.of("counter", "gauge", "summary", "histogram", "untyped");

    /**
     * The rules of Prometheus' text format 0.0.4 a parser holds a page to: names and labels of the allowed
     * characters, one TYPE per family and before its samples, after its HELP; a family's samples together; no
     * sample twice; values that are floats.
     */
    static void assertFollowsTheTextFormat(String text) {
        Map<String, String> types = new HashMap<>();
        Set<String> helped = new HashSet<>();
        Set<String> closed = new HashSet<>();
        Set<String> samples = new HashSet<>();
        String current = null;
        for (String line : List.of(text.split("\n", -1))) {
            if (line.isEmpty()) {
                continue;
            }
            String[] words = line.split(" ", 4);
            if (line.startsWith("# HELP ")) {
                assertTrue(NAME.matcher(words[2]).matches(), line);
                assertTrue(helped.add(words[2]), "a second HELP: " + line);
                assertFalse(types.containsKey(words[2]), "HELP after TYPE: " + line);
            } else if (line.startsWith("# TYPE ")) {
                assertTrue(NAME.matcher(words[2]).matches(), line);
                assertTrue(TYPES.contains(words[3]), line);
                assertFalse(types.containsKey(words[2]), "a second TYPE: " + line);
                if (current != null) {
                    closed.add(current);
                }
                types.put(words[2], words[3]);
                current = words[2];
            } else if (line.startsWith("#")) {
                fail("a comment the format does not know: " + line);
            } else {
                Matcher sample = SAMPLE.matcher(line);
                assertTrue(sample.matches(), "not a sample: " + line);
                String family = sample.group(1);
                assertEquals(current, family, "a sample outside its family's block: " + line);
                assertFalse(closed.contains(family), line);
                assertTrue(FLOAT.matcher(sample.group(3)).matches(), "not a float: " + line);
                assertTrue(samples.add(family + (sample.group(2) == null ? "" : sample.group(2))), "twice: " + line);
            }
        }
        assertTrue(text.isEmpty() || text.endsWith("\n"), "the last line ends");
    }
}
