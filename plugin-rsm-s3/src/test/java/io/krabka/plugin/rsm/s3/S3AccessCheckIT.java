package io.krabka.plugin.rsm.s3;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.storage.RemoteStorageManager;
import io.krabka.testservers.RadosgwBuckets;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A bucket that cannot be used stops configure with one line that names the bucket and the operation. */
class S3AccessCheckIT {
    @RegisterExtension
    static final RadosgwBuckets RGW = new RadosgwBuckets();

    @Test
    void aMissingBucketIsOneLineNamingTheBucketAndTheOperation() {
        String message = refusal(S3Settings.of(RGW.server(), RGW.server().endpoint(), "no-such-bucket-krabka", ""));
        assertTrue(
                message.contains("\"no-such-bucket-krabka\"")
                        && message.contains("HeadBucket")
                        && message.contains("does not exist"),
                message);
    }

    @Test
    void wrongCredentialsAreOneLineNamingTheBucketAndTheOperation() {
        Map<String, Object> settings = S3Settings.of(RGW.server(), RGW.server().endpoint(), RGW.bucket(), "");
        settings.put(S3StoreConfig.SECRET_ACCESS_KEY, "not-the-secret");
        String message = refusal(settings);
        assertTrue(
                message.contains("\"" + RGW.bucket() + "\"")
                        && message.contains("HeadBucket")
                        && message.contains("access denied"),
                message);
    }

    @Test
    void anEndpointThatDoesNotAnswerIsOneLineNamingTheBucket() {
        Map<String, Object> settings = S3Settings.of(RGW.server(), URI.create("http://127.0.0.1:9"), RGW.bucket(), "");
        settings.put(S3StoreConfig.RETRIES, 0);
        String message = refusal(settings);
        assertTrue(message.contains("\"" + RGW.bucket() + "\"") && message.contains("HeadBucket"), message);
    }

    private static String refusal(Map<String, Object> settings) {
        RemoteStorageManager rsm = new S3RemoteStorageManagerProvider().create();
        ConfigException e = assertThrows(ConfigException.class, () -> rsm.configure(settings));
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        return e.getMessage();
    }
}
