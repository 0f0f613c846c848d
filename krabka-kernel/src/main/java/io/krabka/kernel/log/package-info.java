/**
 * The log engine, on Kafka's exact on-disk format: segments, offset, time and transaction indexes, producer state,
 * leader epochs, recovery, retention, and the log manager over the log directories, with their failure handling
 * (a full disk lived through, other I/O errors taking a directory offline).
 */
package io.krabka.kernel.log;
