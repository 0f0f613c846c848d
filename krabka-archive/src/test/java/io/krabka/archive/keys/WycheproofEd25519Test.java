package io.krabka.archive.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every vector of Wycheproof's {@code ed25519_test.json}: a valid signature verifies and an invalid one does not.
 * The file marks no vector "acceptable", so there is no flag to decide: this verifier is strict on all of them,
 * including the malleability (S ≥ L) and non-canonical encoding vectors.
 */
class WycheproofEd25519Test {

    @Test
    void everyVectorIsGradedAsWycheproofSays() throws Exception {
        JsonNode root;
        try (InputStream in = WycheproofEd25519Test.class.getResourceAsStream("/wycheproof/ed25519_test.json")) {
            root = new ObjectMapper().readTree(in);
        }
        List<String> wrong = new ArrayList<>();
        int run = 0;
        for (JsonNode group : root.get("testGroups")) {
            byte[] publicKey =
                    HexFormat.of().parseHex(group.get("publicKey").get("pk").asText());
            VerificationKey key;
            try {
                key = VerificationKey.of(publicKey);
            } catch (IllegalArgumentException refused) {
                key = null;
            }
            for (JsonNode test : group.get("tests")) {
                String result = test.get("result").asText();
                assertTrue(Set.of("valid", "invalid").contains(result), "no vector is \"acceptable\": " + result);
                boolean verified = key != null
                        && key.verify(
                                HexFormat.of().parseHex(test.get("msg").asText()),
                                HexFormat.of().parseHex(test.get("sig").asText()));
                if (verified != result.equals("valid")) {
                    wrong.add("tcId " + test.get("tcId").asInt() + " ("
                            + test.get("comment").asText() + ", " + test.get("flags") + "): expected " + result);
                }
                run++;
            }
        }
        assertEquals(root.get("numberOfTests").asInt(), run, "every vector ran");
        assertEquals(List.of(), wrong);
    }
}
