package io.krabka.kernel.restore.bound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Parsing {@code --to-timestamp}, and "strictly before". */
class TimestampBoundTest {

    /** 2024-05-01T12:00:00Z. */
    private static final long NOON = 1_714_564_800_000L;

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "1714564800000                  | 1714564800000",
                "0                              | 0",
                "2024-05-01T12:00:00Z           | 1714564800000",
                "2024-05-01t12:00:00z           | 1714564800000",
                "2024-05-01T14:00:00+02:00      | 1714564800000",
                "2024-05-01T07:30:00-04:30      | 1714564800000",
                "2024-05-01T12:00:00.250Z       | 1714564800250",
                "2024-05-01T12:00:00.000000001Z | 1714564800001",
                "1970-01-01T00:00:00Z           | 0",
                "1970-01-01T00:00:00.0005Z      | 1",
            })
    void parsesEpochMillisAndRfc3339(String value, long cutMillis) throws Exception {
        assertEquals(cutMillis, TimestampBound.parse(value).cutMillis());
    }

    @Test
    void aFractionOfAMillisecondRoundsTheCutUp() throws Exception {
        // The instant is 0.5 ms after the epoch: a record at millisecond 0 is before it, one at 1 is not.
        TimestampBound cut = TimestampBound.parse("1970-01-01T00:00:00.0005Z");
        assertFalse(cut.isBeyond(0));
        assertTrue(cut.isBeyond(1));
    }

    @Test
    void aRecordAtTheInstantIsBeyondIt() {
        TimestampBound cut = new TimestampBound(NOON);
        assertFalse(cut.isBeyond(NOON - 1));
        assertTrue(cut.isBeyond(NOON));
        assertFalse(cut.isBeyond(-1), "a record without a timestamp is never past the cut");
    }

    private static final String FORM = "expected an RFC 3339 date-time with a zone "
            + "(2024-05-01T12:00:00Z, 2024-05-01T14:00:00.250+02:00) or milliseconds since the epoch";

    @Test
    void aDateTimeWithoutZoneIsRefused() {
        assertRefused(
                "--to-timestamp '2024-05-01T12:00:00': the date-time needs a zone: Z or +HH:MM", "2024-05-01T12:00:00");
        assertRefused(
                "--to-timestamp '2024-05-01T12:00:00.5': the date-time needs a zone: Z or +HH:MM",
                "2024-05-01T12:00:00.5");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "2024-05-01T12:00Z",
                "2024-05-01 12:00:00Z",
                "2024-02-30T00:00:00Z",
                "2024-05-01T24:00:00Z",
                "2024-05-01T12:00:00+0200",
                "2024-05-01T12:00:00+02",
                "2024-05-01T12:00:00Europe/Paris",
                "2024-05-01",
                "+12024-05-01T12:00:00Z",
                "-5",
                "1.5",
                "\"\"",
            })
    void neitherRfc3339NorEpochMillis(String value) {
        assertRefused("--to-timestamp '" + value + "': " + FORM, value);
    }

    @Test
    void beforeTheEpochIsRefused() {
        assertRefused(
                "--to-timestamp '1969-12-31T23:59:59.999Z': the instant is before 1970-01-01T00:00:00Z",
                "1969-12-31T23:59:59.999Z");
    }

    @Test
    void epochMillisBeyondALongAreRefused() {
        assertRefused(
                "--to-timestamp '9223372036854775808': epoch milliseconds '9223372036854775808' is larger "
                        + "than 9223372036854775807",
                "9223372036854775808");
    }

    private static void assertRefused(String message, String value) {
        InvalidRestoreArgumentException e =
                assertThrows(InvalidRestoreArgumentException.class, () -> TimestampBound.parse(value));
        assertEquals(message, e.getMessage());
    }
}
