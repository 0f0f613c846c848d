package io.krabka.kernel.restore.bound;

import io.krabka.spi.common.TopicPartition;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** The pieces the bound flags share: {@code TOPIC:PARTITION=...}, non-negative numbers and byte regexes. */
final class ArgumentText {

    /** Kafka's limit on a topic name's length. */
    private static final int MAX_TOPIC_LENGTH = 249;

    private static final Pattern LEGAL_TOPIC = Pattern.compile("[a-zA-Z0-9._-]+");

    private ArgumentText() {}

    /** A flag value split at its first {@code =}: the partition on the left, the flag's own part on the right. */
    record Assignment(TopicPartition partition, String right) {}

    /** Parses {@code TOPIC:PARTITION=REST}; neither a topic name nor a partition can hold {@code =} or {@code :}. */
    static Assignment partitionAssignment(String flag, String value, String form)
            throws InvalidRestoreArgumentException {
        int equals = value.indexOf('=');
        int colon = equals < 0 ? -1 : value.lastIndexOf(':', equals);
        if (colon < 0) {
            throw InvalidRestoreArgumentException.of(flag, value, "expected " + form);
        }
        String topic = value.substring(0, colon);
        checkTopic(flag, value, topic);
        int partition =
                (int) nonNegative(flag, value, "partition", value.substring(colon + 1, equals), Integer.MAX_VALUE);
        return new Assignment(new TopicPartition(topic, partition), value.substring(equals + 1));
    }

    /** Parses {@code text} as a decimal number from 0 to {@code max}, named {@code what} in the error. */
    static long nonNegative(String flag, String value, String what, String text, long max)
            throws InvalidRestoreArgumentException {
        // Long.parseLong also takes "+5" and "-0"; a bound is plain digits.
        if (text.isEmpty() || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw InvalidRestoreArgumentException.of(
                    flag, value, what + " '" + text + "' is not a number from 0 to " + max);
        }
        try {
            long number = Long.parseLong(text);
            if (number <= max) {
                return number;
            }
        } catch (NumberFormatException tooLong) {
            // Digits only, so the one way to fail is a number beyond the range of a long: reported below.
        }
        throw InvalidRestoreArgumentException.of(flag, value, what + " '" + text + "' is larger than " + max);
    }

    /**
     * Compiles a regex to run over {@link ByteChars}. Only {@code \n} ends a line: ISO-8859-1 maps byte 0x85 to
     * U+0085, which java.util.regex would otherwise take for a line terminator in {@code .} and {@code $}.
     */
    static Pattern byteRegex(String flag, String value, String regex) throws InvalidRestoreArgumentException {
        try {
            return Pattern.compile(regex, Pattern.UNIX_LINES);
        } catch (PatternSyntaxException e) {
            // getMessage() spans three lines (it draws a caret under the pattern); the description is one.
            String where = e.getIndex() >= 0 ? " at index " + e.getIndex() : "";
            throw InvalidRestoreArgumentException.of(flag, value, "invalid regex: " + e.getDescription() + where);
        }
    }

    /** Kafka's rule for topic names: 1 to 249 of {@code [a-zA-Z0-9._-]}, and neither {@code .} nor {@code ..}. */
    private static void checkTopic(String flag, String value, String topic) throws InvalidRestoreArgumentException {
        if (topic.isEmpty()) {
            throw InvalidRestoreArgumentException.of(flag, value, "the topic name is empty");
        }
        if (topic.equals(".") || topic.equals("..")) {
            throw InvalidRestoreArgumentException.of(flag, value, "'" + topic + "' is not a legal topic name");
        }
        if (topic.length() > MAX_TOPIC_LENGTH) {
            throw InvalidRestoreArgumentException.of(
                    flag, value, "the topic name is longer than " + MAX_TOPIC_LENGTH + " characters");
        }
        if (!LEGAL_TOPIC.matcher(topic).matches()) {
            throw InvalidRestoreArgumentException.of(
                    flag,
                    value,
                    "topic '" + topic + "' has a character other than ASCII letters, digits, '.', '_' and '-'");
        }
    }
}
