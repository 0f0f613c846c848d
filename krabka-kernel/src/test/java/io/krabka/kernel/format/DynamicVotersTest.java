package io.krabka.kernel.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.spi.common.Uuid;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.VotersRecord;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.junit.jupiter.api.Test;

/**
 * Kafka 4.4's own {@code DynamicVoters} judges Krabka's: the same voters parsed, the same refusals with the same
 * messages, and the same {@code VotersRecord} bytes, voter order included.
 */
class DynamicVotersTest {

    @Test
    void votersParseAsKafkaParsesThemAndMakeKafkasVotersRecord() {
        List<String> inputs = List.of(
                "1@127.0.0.1:9093:0XYIQhIGSoePQhGC5Avl4w",
                " 2@localhost:0:AAAAAAAAAAAAAAAAAAAAAQ ,,3@[::1]:65535:kFtEAwnxTqKW0CKbOLkH0g,",
                "17@a:1:AAAAAAAAAAAAAAAAAAAAAQ,1@b:2:AAAAAAAAAAAAAAAAAAAAAg,33@c:3:AAAAAAAAAAAAAAAAAAAAAw,"
                        + "16@d:4:AAAAAAAAAAAAAAAAAAAABA,100000@E.example:5:AAAAAAAAAAAAAAAAAAAABQ,0@:6:AAAAAAAAAAAAAAAAAAAABg",
                "5@[fe80::1%eth0]:9093:0XYIQhIGSoePQhGC5Avl4w,6@[::ffff:10.0.0.1]:9093:0XYIQhIGSoePQhGC5Avl4w,"
                        + "7@010.1:9093:0XYIQhIGSoePQhGC5Avl4w");
        for (String input : inputs) {
            org.apache.kafka.raft.DynamicVoters kafka = org.apache.kafka.raft.DynamicVoters.parse(input);
            DynamicVoters ours = DynamicVoters.parse(input);

            assertEquals(kafka.toString(), ours.toString(), input);
            assertArrayEquals(
                    bytes(kafka.toVoterSet("controller").toVotersRecord((short) 0)),
                    bytes(ours.toVotersRecord("controller", (short) 0)),
                    input);
        }
    }

    @Test
    void badVotersAreRefusedWithKafkasMessages() {
        List<String> inputs = List.of(
                "",
                " , ",
                "1",
                "@h:1:0XYIQhIGSoePQhGC5Avl4w",
                "x@h:1:0XYIQhIGSoePQhGC5Avl4w",
                "-1@h:1:0XYIQhIGSoePQhGC5Avl4w",
                "1@",
                "1@[::1:1:0XYIQhIGSoePQhGC5Avl4w",
                "1@[::1]x:1:0XYIQhIGSoePQhGC5Avl4w",
                "1@h",
                "1@h:1",
                "1@h:p:0XYIQhIGSoePQhGC5Avl4w",
                "1@h:65536:0XYIQhIGSoePQhGC5Avl4w",
                "1@h:-1:0XYIQhIGSoePQhGC5Avl4w",
                "1@h:1:not-an-id",
                "1@h:1:0XYIQhIGSoePQhGC5Avl4w,1@g:2:AAAAAAAAAAAAAAAAAAAAAQ",
                "99999999999@h:1:0XYIQhIGSoePQhGC5Avl4w");
        for (String input : inputs) {
            IllegalArgumentException kafka = assertThrows(
                    IllegalArgumentException.class, () -> org.apache.kafka.raft.DynamicVoters.parse(input), input);
            IllegalArgumentException ours =
                    assertThrows(IllegalArgumentException.class, () -> DynamicVoters.parse(input), input);
            assertEquals(kafka.getMessage(), ours.getMessage(), input);
        }
    }

    @Test
    void votersAreKeptByNodeId() {
        DynamicVoters voters = DynamicVoters.parse("3@c:3:AAAAAAAAAAAAAAAAAAAAAw,1@b:2:AAAAAAAAAAAAAAAAAAAAAg");

        assertEquals(List.of(1, 3), List.copyOf(voters.voters().keySet()));
        assertEquals(
                new DynamicVoter(1, "b", 2, Uuid.fromString("AAAAAAAAAAAAAAAAAAAAAg")),
                voters.voters().get(1));
        assertEquals(voters, DynamicVoters.parse("1@b:2:AAAAAAAAAAAAAAAAAAAAAg,3@c:3:AAAAAAAAAAAAAAAAAAAAAw"));
    }

    private static byte[] bytes(VotersRecord record) {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer buffer = ByteBuffer.allocate(record.size(cache, (short) 0));
        record.write(new ByteBufferAccessor(buffer), cache, (short) 0);
        return buffer.array();
    }
}
