package io.krabka.kernel.restore.bound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.record.Header;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Parsing {@code --exclude-key}, {@code --exclude-header} and {@code --exclude-producer-id}, and raw-byte matching. */
class ExclusionFlagsTest {

    @Test
    void keyRegexIsFoundAnywhereInTheKey() throws Exception {
        KeyExclusion exclusion = KeyExclusion.parse("secret");
        assertTrue(exclusion.matches(text("top-secret-1")));
        assertFalse(exclusion.matches(text("top-secre")));
        assertFalse(exclusion.matches(null), "a record without a key is not excluded");
        assertTrue(KeyExclusion.parse("^\\z").matches(text("")), "an empty key is a key");
    }

    @Test
    void keyRegexSeesEachByteAsOneChar() throws Exception {
        // "é" in UTF-8 is two bytes: the regex sees two chars, 0xC3 and 0xA9, never the decoded "é".
        ByteBuffer key = text("é");
        assertTrue(KeyExclusion.parse("^..\\z").matches(key));
        assertTrue(KeyExclusion.parse("^\\xC3\\xA9\\z").matches(key));
        assertFalse(KeyExclusion.parse("é").matches(key));
    }

    @Test
    void keyRegexMatchesBytesThatAreNotUtf8() throws Exception {
        ByteBuffer key = bytes(0xFF, 0xFE, 0x00, 0x80);
        assertTrue(KeyExclusion.parse("^\\xFF\\xFE\\x00\\x80\\z").matches(key));
        assertTrue(KeyExclusion.parse("^.{4}\\z").matches(key));
        assertTrue(KeyExclusion.parse("[\\x80-\\xFF]").matches(key));
        assertFalse(KeyExclusion.parse("^\\xFF\\xFE\\z").matches(key));
    }

    @Test
    void onlyByte0x0AEndsALine() throws Exception {
        // 0x85 is U+0085 (NEL) in ISO-8859-1, a line end to java.util.regex unless UNIX_LINES is on.
        ByteBuffer nel = bytes('a', 'b', 'c', 0x85);
        assertFalse(KeyExclusion.parse("abc$").matches(nel));
        assertTrue(KeyExclusion.parse("^abc.\\z").matches(nel));
        ByteBuffer newline = bytes('a', 'b', 'c', 0x0A);
        assertFalse(KeyExclusion.parse("^abc.\\z").matches(newline));
    }

    @Test
    void matchingReadsOnlyTheBufferRemainingAndLeavesItAsItWas() throws Exception {
        ByteBuffer key = ByteBuffer.wrap("xxkeyyy".getBytes(StandardCharsets.US_ASCII), 2, 3);
        assertTrue(KeyExclusion.parse("^key\\z").matches(key));
        assertEquals(2, key.position());
        assertEquals(5, key.limit());
    }

    @Test
    void badKeyRegexIsRefusedOnOneLine() {
        assertRefused(
                "--exclude-key '[': invalid regex: Unclosed character class at index 0", () -> KeyExclusion.parse("["));
        assertRefused(
                "--exclude-key 'a\\u000a(': invalid regex: Unclosed group at index 3",
                () -> KeyExclusion.parse("a\n("));
    }

    @Test
    void headerRegexMatchesTheValueOfAHeaderWithExactlyThatName() throws Exception {
        HeaderExclusion exclusion = HeaderExclusion.parse("trace=^x");
        assertEquals("trace", exclusion.name());
        assertTrue(exclusion.matches(List.of(header("trace", "xyz"))));
        assertFalse(exclusion.matches(List.of(header("Trace", "xyz"))), "names are compared exactly");
        assertFalse(exclusion.matches(List.of(header("trace", "yx"))));
        assertTrue(
                exclusion.matches(List.of(header("trace", "yx"), header("trace", "xy"))),
                "any header of the name may match");
        assertFalse(exclusion.matches(List.of()));
    }

    @Test
    void headerWithoutValueIsNeverMatched() throws Exception {
        assertFalse(HeaderExclusion.parse("trace=").matches(List.of(Header.of("trace", null))));
        assertTrue(HeaderExclusion.parse("trace=").matches(List.of(Header.of("trace", new byte[0]))));
    }

    @Test
    void headerValueIsRawBytes() throws Exception {
        Header binary = new Header("id", bytes(0xDE, 0xAD, 0xBE, 0xEF));
        assertTrue(HeaderExclusion.parse("id=^\\xDE\\xAD").matches(List.of(binary)));
        assertFalse(HeaderExclusion.parse("id=^\\xAD").matches(List.of(binary)));
    }

    @Test
    void headerFlagSplitsAtTheFirstEquals() throws Exception {
        HeaderExclusion exclusion = HeaderExclusion.parse("kind=a=b");
        assertEquals("kind", exclusion.name());
        assertEquals("a=b", exclusion.pattern().pattern());
        assertEquals("kind=a=b", exclusion.toString());
    }

    @Test
    void badHeaderFlagsAreRefused() {
        assertRefused("--exclude-header 'trace': expected NAME=REGEX", () -> HeaderExclusion.parse("trace"));
        assertRefused("--exclude-header '=x': the header name is empty", () -> HeaderExclusion.parse("=x"));
        assertRefused(
                "--exclude-header 'h=(': invalid regex: Unclosed group at index 1", () -> HeaderExclusion.parse("h=("));
    }

    @Test
    void producerIdParsing() throws Exception {
        assertEquals(0, ProducerExclusion.parse("0").producerId());
        assertEquals(
                Long.MAX_VALUE, ProducerExclusion.parse("9223372036854775807").producerId());
        assertRefused(
                "--exclude-producer-id '-1': producer id '-1' is not a number from 0 to 9223372036854775807",
                () -> ProducerExclusion.parse("-1"));
        assertRefused(
                "--exclude-producer-id 'p7': producer id 'p7' is not a number from 0 to 9223372036854775807",
                () -> ProducerExclusion.parse("p7"));
        assertRefused(
                "--exclude-producer-id '9223372036854775808': producer id '9223372036854775808' is larger "
                        + "than 9223372036854775807",
                () -> ProducerExclusion.parse("9223372036854775808"));
    }

    private interface Parse {
        Object run() throws InvalidRestoreArgumentException;
    }

    private static void assertRefused(String message, Parse parse) {
        InvalidRestoreArgumentException e = assertThrows(InvalidRestoreArgumentException.class, parse::run);
        assertEquals(message, e.getMessage());
    }

    static ByteBuffer text(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    static ByteBuffer bytes(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return ByteBuffer.wrap(out);
    }

    private static Header header(String name, String value) {
        return new Header(name, text(value));
    }
}
