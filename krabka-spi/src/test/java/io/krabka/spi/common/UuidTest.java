package io.krabka.spi.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class UuidTest {

    @Test
    void textFormIsKafkasUrlSafeBase64WithoutPadding() {
        // Kafka's documented example: the topic id of LocalTieredStorage's quick start listing.
        Uuid uuid = Uuid.fromString("jF8s79t9SrG_PNqlwv7bAA");
        assertEquals("jF8s79t9SrG_PNqlwv7bAA", uuid.toString());
        assertEquals("AAAAAAAAAAAAAAAAAAAAAQ", Uuid.METADATA_TOPIC_ID.toString());
        assertEquals(new Uuid(0L, 30L).toString(), "AAAAAAAAAAAAAAAAAAAAHg");
    }

    @Test
    void bytesRoundTrip() {
        Uuid uuid = Uuid.randomUuid();
        assertEquals(uuid, Uuid.fromBytes(uuid.toBytes()));
        assertEquals(uuid, Uuid.fromString(uuid.toString()));
    }

    @Test
    void randomIdsAreNeverReservedNorStartWithADash() {
        for (int i = 0; i < 10_000; i++) {
            Uuid uuid = Uuid.randomUuid();
            assertFalse(uuid.toString().startsWith("-"), uuid.toString());
            assertNotEquals(Uuid.ZERO_UUID, uuid);
            assertNotEquals(Uuid.METADATA_TOPIC_ID, uuid);
        }
    }

    @Test
    void rejectsMalformedText() {
        assertThrows(IllegalArgumentException.class, () -> Uuid.fromString("short"));
        assertThrows(IllegalArgumentException.class, () -> Uuid.fromString("jF8s79t9SrG_PNqlwv7bA*"));
        assertThrows(IllegalArgumentException.class, () -> Uuid.fromString(null));
        assertThrows(IllegalArgumentException.class, () -> Uuid.fromBytes(new byte[15]));
    }

    @Test
    void partitionsValidateAndPrintAsKafkaDoes() {
        TopicIdPartition tip = new TopicIdPartition(Uuid.METADATA_TOPIC_ID, "orders", 3);
        assertEquals("AAAAAAAAAAAAAAAAAAAAAQ:orders-3", tip.toString());
        assertEquals("orders", tip.topic());
        assertEquals(3, tip.partition());
        assertThrows(IllegalArgumentException.class, () -> new TopicPartition("orders", -1));
        assertThrows(IllegalArgumentException.class, () -> new TopicPartition("", 0));
    }
}
