package io.krabka.kernel.broker;

import io.krabka.kernel.log.LogDirFailureChannel;
import io.krabka.kernel.metrics.MetricsRegistry;
import io.krabka.kernel.scheduler.Scheduler;
import java.time.InstantSource;
import java.util.Objects;
import java.util.function.Function;

/**
 * What a starting broker gives its {@link BrokerServices}.
 *
 * @param config             the broker's settings
 * @param clusterId          the cluster the log directories were formatted for
 * @param scheduler          the broker's background threads ({@code background.threads})
 * @param time               the broker's clock
 * @param advertisedListeners what the clients of a listener are told of, by listener name, with the port bound
 *                            (the inter-broker listener's for a name that is none of the broker's); to be read
 *                            once the broker serves (a request handler reads it per request)
 * @param metrics            the broker's metrics, on JMX and the health endpoint's {@code /metrics}
 * @param logDirFailureChannel where whatever writes into a log directory (the logs, the metadata log) reports it
 *                             offline after an I/O error
 * @param dynamicConfig      the broker's dynamic configs: the services register it with their controller, as the
 *                           publisher that applies them and the validator of broker resources
 */
public record BrokerContext(
        BrokerConfig config,
        String clusterId,
        Scheduler scheduler,
        InstantSource time,
        Function<String, Endpoint> advertisedListeners,
        MetricsRegistry metrics,
        LogDirFailureChannel logDirFailureChannel,
        DynamicBrokerConfig dynamicConfig) {

    /** Checks the parts. */
    public BrokerContext {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(clusterId, "clusterId");
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(advertisedListeners, "advertisedListeners");
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(logDirFailureChannel, "logDirFailureChannel");
        Objects.requireNonNull(dynamicConfig, "dynamicConfig");
    }
}
