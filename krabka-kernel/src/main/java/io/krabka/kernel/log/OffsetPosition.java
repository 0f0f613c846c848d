package io.krabka.kernel.log;

/**
 * An offset index entry: a message offset and the position in the segment file from which to scan for it.
 *
 * @param offset   the absolute offset
 * @param position the byte position in the segment file
 */
public record OffsetPosition(long offset, int position) {}
