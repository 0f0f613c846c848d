/**
 * The restore's last stage: the verified batches written as Kafka's segments, indexes and producer state, and the
 * metadata log for the restored topics, forced to disk before anything moves into place.
 */
package io.krabka.kernel.restore.materialize;
