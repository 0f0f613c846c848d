package io.krabka.kernel.restore.bound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.spi.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Parsing {@code --to-offset} and {@code --exclude-offset}, and the partition both name. */
class OffsetFlagsTest {

    @Test
    void toOffsetParsesTopicPartitionAndInclusiveOffset() throws Exception {
        OffsetBound bound = OffsetBound.parse("my.topic_v-2:3=42");
        assertEquals(new TopicPartition("my.topic_v-2", 3), bound.partition());
        assertEquals(42, bound.offset());
        assertEquals("my.topic_v-2:3=42", bound.toString());
    }

    @Test
    void toOffsetTakesTheLargestNumbers() throws Exception {
        OffsetBound bound = OffsetBound.parse("t:2147483647=9223372036854775807");
        assertEquals(Integer.MAX_VALUE, bound.partition().partition());
        assertEquals(Long.MAX_VALUE, bound.offset());
    }

    @Test
    void topicNameOfTheLongestLegalLength() throws Exception {
        String topic = "t".repeat(249);
        assertEquals(topic, OffsetBound.parse(topic + ":0=1").partition().topic());
        assertRefused(
                "--to-offset '" + topic + "t:0=1': the topic name is longer than 249 characters", topic + "t:0=1");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "orders:3         | --to-offset 'orders:3': expected TOPIC:PARTITION=N",
                "orders=3         | --to-offset 'orders=3': expected TOPIC:PARTITION=N",
                "\"\"             | --to-offset '': expected TOPIC:PARTITION=N",
                ":0=5             | --to-offset ':0=5': the topic name is empty",
                "..:0=5           | --to-offset '..:0=5': '..' is not a legal topic name",
                ".:0=5            | --to-offset '.:0=5': '.' is not a legal topic name",
                "a b:0=5          | --to-offset 'a b:0=5': topic 'a b' has a character other than ASCII letters, digits, '.', '_' and '-'",
                "a:b:0=5          | --to-offset 'a:b:0=5': topic 'a:b' has a character other than ASCII letters, digits, '.', '_' and '-'",
                "orders:x=5       | --to-offset 'orders:x=5': partition 'x' is not a number from 0 to 2147483647",
                "orders:-1=5      | --to-offset 'orders:-1=5': partition '-1' is not a number from 0 to 2147483647",
                "orders:=5        | --to-offset 'orders:=5': partition '' is not a number from 0 to 2147483647",
                "orders:2147483648=5 | --to-offset 'orders:2147483648=5': partition '2147483648' is larger than 2147483647",
                "orders:0=-1      | --to-offset 'orders:0=-1': offset '-1' is not a number from 0 to 9223372036854775807",
                "orders:0=+5      | --to-offset 'orders:0=+5': offset '+5' is not a number from 0 to 9223372036854775807",
                "orders:0=        | --to-offset 'orders:0=': offset '' is not a number from 0 to 9223372036854775807",
                "orders:0=5=6     | --to-offset 'orders:0=5=6': offset '5=6' is not a number from 0 to 9223372036854775807",
                "orders:0=99999999999999999999 | --to-offset 'orders:0=99999999999999999999': offset '99999999999999999999' is larger than 9223372036854775807",
            })
    void toOffsetRefusals(String value, String message) {
        assertRefused(message, value);
    }

    @Test
    void controlCharactersInAValueStayOnOneLine() {
        assertRefused(
                "--to-offset 'a\\u000ab:0=1': topic 'a\nb' has a character other than ASCII letters, "
                        + "digits, '.', '_' and '-'",
                "a\nb:0=1");
    }

    @Test
    void excludeOffsetWithExclusiveEnd() throws Exception {
        OffsetExclusion range = OffsetExclusion.parse("orders:1=10..20");
        assertEquals(new OffsetExclusion(new TopicPartition("orders", 1), 10, 19), range);
        assertEquals("orders:1=10..=19", range.toString());
    }

    @Test
    void excludeOffsetWithInclusiveEnd() throws Exception {
        assertEquals(
                new OffsetExclusion(new TopicPartition("orders", 1), 10, 20),
                OffsetExclusion.parse("orders:1=10..=20"));
        assertEquals(
                new OffsetExclusion(new TopicPartition("orders", 1), 5, 5), OffsetExclusion.parse("orders:1=5..=5"));
        assertEquals(
                Long.MAX_VALUE,
                OffsetExclusion.parse("orders:1=0..=9223372036854775807").last());
    }

    @Test
    void excludeOffsetContainsItsEnds() throws Exception {
        OffsetExclusion range = OffsetExclusion.parse("t:0=10..20");
        assertEquals(false, range.contains(9));
        assertEquals(true, range.contains(10));
        assertEquals(true, range.contains(19));
        assertEquals(false, range.contains(20));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "t:0=5..5    | --exclude-offset 't:0=5..5': the range is empty: write A..B with A < B, or A..=B with A <= B",
                "t:0=6..5    | --exclude-offset 't:0=6..5': the range is empty: write A..B with A < B, or A..=B with A <= B",
                "t:0=6..=5   | --exclude-offset 't:0=6..=5': the range is empty: write A..B with A < B, or A..=B with A <= B",
                "t:0=10-20   | --exclude-offset 't:0=10-20': expected TOPIC:PARTITION=A..B or TOPIC:PARTITION=A..=B",
                "t:0         | --exclude-offset 't:0': expected TOPIC:PARTITION=A..B or TOPIC:PARTITION=A..=B",
                "t:0=..5     | --exclude-offset 't:0=..5': offset '' is not a number from 0 to 9223372036854775807",
                "t:0=5..     | --exclude-offset 't:0=5..': offset '' is not a number from 0 to 9223372036854775807",
                "t:0=1...5   | --exclude-offset 't:0=1...5': offset '.5' is not a number from 0 to 9223372036854775807",
                "t:0=-1..5   | --exclude-offset 't:0=-1..5': offset '-1' is not a number from 0 to 9223372036854775807",
                "t:p=1..5    | --exclude-offset 't:p=1..5': partition 'p' is not a number from 0 to 2147483647",
                "t*:0=1..5   | --exclude-offset 't*:0=1..5': topic 't*' has a character other than ASCII letters, digits, '.', '_' and '-'",
            })
    void excludeOffsetRefusals(String value, String message) {
        InvalidRestoreArgumentException e =
                assertThrows(InvalidRestoreArgumentException.class, () -> OffsetExclusion.parse(value));
        assertEquals(message, e.getMessage());
    }

    private static void assertRefused(String message, String value) {
        InvalidRestoreArgumentException e =
                assertThrows(InvalidRestoreArgumentException.class, () -> OffsetBound.parse(value));
        assertEquals(message, e.getMessage());
    }
}
