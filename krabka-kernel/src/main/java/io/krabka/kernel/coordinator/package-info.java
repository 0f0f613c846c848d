/**
 * What the group and transaction coordinators share: Kafka's field encodings of their records, and the reading of a
 * coordinator's partition from its log.
 */
package io.krabka.kernel.coordinator;
