/**
 * The group coordinator: classic consumer groups (join, sync, heartbeat, leave) and committed offsets, kept in
 * {@code __consumer_offsets} in Kafka's record formats and loaded back from it.
 */
package io.krabka.kernel.group;
