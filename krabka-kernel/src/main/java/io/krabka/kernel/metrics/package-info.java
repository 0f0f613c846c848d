/**
 * The broker's metrics: gauges, meters and histograms under Kafka's JMX names, registered in one registry that JMX
 * and the health endpoint's {@code /metrics} read, and the registry plugins see. A leaf.
 */
package io.krabka.kernel.metrics;
