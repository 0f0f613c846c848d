/**
 * The small files beside the logs, in Kafka's formats: offset checkpoints, leader epoch checkpoints,
 * {@code partition.metadata}, {@code meta.properties}, the clean shutdown marker; written whole (temporary file, fsync,
 * rename).
 */
package io.krabka.kernel.log.checkpoint;
