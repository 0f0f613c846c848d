package io.krabka.kernel.restore.bound;

import static io.krabka.kernel.restore.bound.ExclusionFlagsTest.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** Bytes as ISO-8859-1 chars, which is what the exclusion regexes read. */
class ByteCharsTest {

    @Test
    void eachByteIsTheCharOfItsUnsignedValue() {
        ByteChars chars = new ByteChars(bytes(0x00, 0x41, 0x7F, 0x80, 0xFF));
        assertEquals(5, chars.length());
        assertEquals('\u0000', chars.charAt(0));
        assertEquals('A', chars.charAt(1));
        assertEquals('\u0080', chars.charAt(3));
        assertEquals('\u00FF', chars.charAt(4));
        assertEquals("\u0000A\u007F\u0080\u00FF", chars.toString());
    }

    @Test
    void subSequenceAndToStringSeeOnlyTheRemainingBytes() {
        ByteBuffer buffer = bytes('x', 'a', 'b', 'c', 'y').position(1).limit(4);
        ByteChars chars = new ByteChars(buffer);
        assertEquals("abc", chars.toString());
        assertEquals("bc", chars.subSequence(1, 3).toString());
        assertEquals("", chars.subSequence(3, 3).toString());
        assertEquals(1, buffer.position());
        assertEquals(4, buffer.limit());
    }
}
