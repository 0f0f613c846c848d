/**
 * The network layer on Netty: connections, Kafka's framing, request parsing and dispatch to the API handlers,
 * back pressure, and zero-copy sends of records.
 */
package io.krabka.kernel.network;
