/**
 * {@code krabka format}: log directories formatted as Kafka's {@code kafka-storage.sh format} does
 * ({@code meta.properties}, the bootstrap checkpoint, the initial quorum).
 */
package io.krabka.kernel.format;
