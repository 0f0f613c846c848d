package io.krabka.plugin.rsm.gcs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.auth.oauth2.ServiceAccountCredentials;
import com.google.cloud.NoCredentials;
import com.google.cloud.storage.Storage;
import io.krabka.spi.plugin.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client each credentials setting makes, without contacting anything. */
class GcsTierTest {

    @Test
    void aServiceAccountKeyFileBecomesTheClientsCredentials(@TempDir Path dir) throws Exception {
        Path key = Files.writeString(
                dir.resolve("sa.json"), serviceAccountJson("tier@krabka-test.iam.gserviceaccount.com"));
        Storage storage =
                GcsClient.create(GcsStoreConfig.parse(Map.of("bucket", "b", "credentials.path", key.toString())));
        try {
            ServiceAccountCredentials credentials = assertInstanceOf(
                    ServiceAccountCredentials.class, storage.getOptions().getCredentials());
            assertEquals("tier@krabka-test.iam.gserviceaccount.com", credentials.getClientEmail());
            assertEquals("krabka-test", storage.getOptions().getProjectId());
        } finally {
            storage.close();
        }
    }

    @Test
    void noCredentialsAndAnEndpointAreTheFixturesSetUp() throws Exception {
        Storage storage = GcsClient.create(GcsStoreConfig.parse(Map.of(
                "bucket",
                "b",
                "no.credentials",
                true,
                "endpoint",
                "http://127.0.0.1:4443/",
                "project.id",
                "p",
                "retries",
                3)));
        try {
            assertEquals(NoCredentials.getInstance(), storage.getOptions().getCredentials());
            assertEquals("http://127.0.0.1:4443", storage.getOptions().getHost());
            assertEquals(4, storage.getOptions().getRetrySettings().getMaxAttempts());
        } finally {
            storage.close();
        }
    }

    @Test
    void anUnreadableKeyFileIsAOneLineConfigurationError(@TempDir Path dir) throws Exception {
        Path key = Files.writeString(dir.resolve("sa.json"), "{}");
        ConfigException e = assertThrows(
                ConfigException.class, () -> GcsTier.open(Map.of("bucket", "b", "credentials.path", key.toString())));
        assertTrue(e.getMessage().startsWith("cannot create the GCS client for bucket \"b\""), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    /** A service account key file as Google issues them, with a new RSA key. */
    private static String serviceAccountJson(String email) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        String pem = "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'})
                        .encodeToString(generator.generateKeyPair().getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        pem = pem.replace("\n", "\\n"); // as JSON writes a newline in a string
        return "{\"type\":\"service_account\",\"project_id\":\"krabka-test\",\"private_key_id\":\"k1\","
                + "\"private_key\":\"" + pem + "\",\"client_email\":\"" + email + "\",\"client_id\":\"1\","
                + "\"token_uri\":\"http://127.0.0.1:9/token\"}";
    }
}
