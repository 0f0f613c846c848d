package io.krabka.kernel.log;

/**
 * A time index entry: every message after {@code offset} has a timestamp above {@code timestamp}.
 *
 * @param timestamp the largest timestamp seen before {@code offset}, or {@link TimeIndex#NO_TIMESTAMP}
 * @param offset    the absolute offset
 */
public record TimestampOffset(long timestamp, long offset) {}
