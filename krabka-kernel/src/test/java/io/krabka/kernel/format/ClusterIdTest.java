package io.krabka.kernel.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ClusterIdTest {

    @Test
    void kafkasFormIsKeptAndAHyphenatedUuidBecomesIt() {
        assertEquals("MkU3OEVBNTcwNTJENDM2Qg", ClusterId.parse("MkU3OEVBNTcwNTJENDM2Qg"));
        // Stray bits in the last character are kept, as Kafka keeps the id it is given.
        assertEquals("MkU3OEVBNTcwNTJENDM2Qk", ClusterId.parse("MkU3OEVBNTcwNTJENDM2Qk"));
        UUID uuid = UUID.fromString("3ad0e4b1-2b1f-4c49-9a64-5e0b9f0c1d2e");
        String kafka = new org.apache.kafka.common.Uuid(uuid.getMostSignificantBits(), uuid.getLeastSignificantBits())
                .toString();

        assertEquals(kafka, ClusterId.parse("3ad0e4b1-2b1f-4c49-9a64-5e0b9f0c1d2e"));
        assertEquals(kafka, ClusterId.parse("3AD0E4B1-2B1F-4C49-9A64-5E0B9F0C1D2E"));
    }

    @Test
    void anythingElseIsRefused() {
        for (String text : List.of(
                "",
                "MkU3OEVBNTcwNTJENDM2Q",
                "MkU3OEVBNTcwNTJENDM2Qk=",
                "MkU3OEVBNTcwNTJENDM2+k",
                "3ad0e4b1-2b1f-4c49-9a64-5e0b9f0c1d2",
                "3ad0e4b1-2b1f-4c49-9a64-5e0b9f0c1d2g",
                "1-1-1-1-1",
                "3ad0e4b12b1f4c499a645e0b9f0c1d2e",
                "not-a-cluster-id")) {
            IllegalArgumentException refused =
                    assertThrows(IllegalArgumentException.class, () -> ClusterId.parse(text), text);
            assertEquals(
                    "cluster id '" + text + "' is neither 22 characters of URL-safe base64 (Kafka's form) nor a "
                            + "hyphenated UUID",
                    refused.getMessage());
        }
    }

    @Test
    void randomIdsAreKafkasFormAndDiffer() {
        String id = ClusterId.random();

        assertEquals(id, ClusterId.parse(id));
        assertEquals(id, org.apache.kafka.common.Uuid.fromString(id).toString());
        assertNotEquals(id, ClusterId.random());
    }
}
