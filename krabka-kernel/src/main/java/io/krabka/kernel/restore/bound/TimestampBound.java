package io.krabka.kernel.restore.bound;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;

/**
 * {@code --to-timestamp RFC3339|EPOCH_MS}: keep the records whose timestamp is strictly before an instant, in
 * every partition. Kafka timestamps are whole milliseconds, so an instant with a fraction of a millisecond is
 * rounded up: a record at millisecond {@code m} is before the instant exactly when {@code m < cutMillis}.
 *
 * @param cutMillis the first millisecond since the epoch that is not kept
 */
public record TimestampBound(long cutMillis) {

    /** The flag's name. */
    public static final String FLAG = "--to-timestamp";

    /**
     * RFC 3339's date-time: a four-digit year, {@code T} (or {@code t}) between date and time, seconds required,
     * any fraction, and a zone that is {@code Z} or {@code ±HH:MM}. The zone is optional here only so that its
     * absence gets its own message. Strict resolution refuses dates such as February 30th.
     */
    private static final DateTimeFormatter RFC_3339 = new DateTimeFormatterBuilder()
            .parseCaseInsensitive()
            .appendValue(ChronoField.YEAR, 4)
            .appendLiteral('-')
            .appendValue(ChronoField.MONTH_OF_YEAR, 2)
            .appendLiteral('-')
            .appendValue(ChronoField.DAY_OF_MONTH, 2)
            .appendLiteral('T')
            .appendValue(ChronoField.HOUR_OF_DAY, 2)
            .appendLiteral(':')
            .appendValue(ChronoField.MINUTE_OF_HOUR, 2)
            .appendLiteral(':')
            .appendValue(ChronoField.SECOND_OF_MINUTE, 2)
            .optionalStart()
            .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
            .optionalEnd()
            .optionalStart()
            .appendOffset("+HH:MM", "Z")
            .optionalEnd()
            .toFormatter()
            .withResolverStyle(ResolverStyle.STRICT);

    private static final String FORM = "expected an RFC 3339 date-time with a zone "
            + "(2024-05-01T12:00:00Z, 2024-05-01T14:00:00.250+02:00) or milliseconds since the epoch";

    /** Checks the instant. */
    public TimestampBound {
        if (cutMillis < 0) {
            throw new IllegalArgumentException("the cut is before the epoch: " + cutMillis);
        }
    }

    /**
     * Parses the flag's value: digits are milliseconds since the epoch, anything else an RFC 3339 date-time.
     *
     * @throws InvalidRestoreArgumentException naming the flag and the value when it is neither, has no zone, or
     *                                         lies before the epoch (Kafka timestamps are not negative)
     */
    public static TimestampBound parse(String value) throws InvalidRestoreArgumentException {
        if (!value.isEmpty() && value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return new TimestampBound(
                    ArgumentText.nonNegative(FLAG, value, "epoch milliseconds", value, Long.MAX_VALUE));
        }
        TemporalAccessor parsed = parseDateTime(value);
        if (!parsed.isSupported(ChronoField.OFFSET_SECONDS)) {
            throw InvalidRestoreArgumentException.of(FLAG, value, "the date-time needs a zone: Z or +HH:MM");
        }
        Instant instant = OffsetDateTime.from(parsed).toInstant();
        if (instant.isBefore(Instant.EPOCH)) {
            throw InvalidRestoreArgumentException.of(FLAG, value, "the instant is before 1970-01-01T00:00:00Z");
        }
        long millis = instant.toEpochMilli();
        return new TimestampBound(instant.getNano() % 1_000_000 == 0 ? millis : millis + 1);
    }

    private static TemporalAccessor parseDateTime(String value) throws InvalidRestoreArgumentException {
        try {
            return RFC_3339.parse(value);
        } catch (DateTimeParseException e) {
            throw InvalidRestoreArgumentException.of(FLAG, value, FORM);
        }
    }

    /** Whether a record with {@code timestamp} is at or after the instant, so beyond the cut. */
    public boolean isBeyond(long timestamp) {
        return timestamp >= cutMillis;
    }

    /** The flag's value, in milliseconds since the epoch. */
    @Override
    public String toString() {
        return Long.toString(cutMillis);
    }
}
