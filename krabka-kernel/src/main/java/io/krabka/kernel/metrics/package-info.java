/**
 * The broker's metrics, as Kafka's (Yammer 2.2): gauges, meters, histograms on an exponentially decaying sample and
 * timers, under Kafka's JMX names and attributes, registered in one registry that JMX and the health endpoint's
 * {@code /metrics} (Prometheus' text format) read, and the registry plugins see. A leaf.
 */
package io.krabka.kernel.metrics;
