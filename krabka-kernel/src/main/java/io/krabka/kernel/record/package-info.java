/**
 * Kafka's record formats: record batches (v2) and legacy messages (v0, v1), their compression codecs, and the
 * validation of a produced batch (LogValidator). The bottom layer: it uses no other package of the kernel.
 */
package io.krabka.kernel.record;
