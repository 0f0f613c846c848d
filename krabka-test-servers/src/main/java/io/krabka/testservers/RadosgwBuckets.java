package io.krabka.testservers;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A JUnit 5 extension that gives a test class the JVM's radosgw ({@link Radosgw}) and a new, empty bucket of its
 * own, emptied and removed after the class (the OSD holds data in RAM). Register it as a static field:
 * {@snippet :
 * @RegisterExtension
 * static final RadosgwBuckets RGW = new RadosgwBuckets();
 * }
 */
public final class RadosgwBuckets implements BeforeAllCallback, AfterAllCallback {
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private S3Server server;
    private String bucket;

    /** An extension; the server and bucket come before the class's tests run. */
    public RadosgwBuckets() {
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        server = Radosgw.get();
        String name = context.getRequiredTestClass().getSimpleName().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
        bucket = (name.length() > 40 ? name.substring(0, 40) : name) + "-" + ProcessHandle.current().pid() + "-"
                + SEQUENCE.incrementAndGet();
        try (S3Client s3 = server.client()) {
            s3.createBucket(b -> b.bucket(bucket));
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (bucket == null) {
            return;
        }
        try (S3Client s3 = server.client()) {
            s3.listMultipartUploadsPaginator(b -> b.bucket(bucket)).uploads().forEach(u ->
                    s3.abortMultipartUpload(b -> b.bucket(bucket).key(u.key()).uploadId(u.uploadId())));
            for (S3Object object : s3.listObjectsV2Paginator(b -> b.bucket(bucket)).contents()) {
                s3.deleteObject(b -> b.bucket(bucket).key(object.key()));
            }
            s3.deleteBucket(b -> b.bucket(bucket));
        }
    }

    /** The server. */
    public S3Server server() {
        return server;
    }

    /** The class's bucket. */
    public String bucket() {
        return bucket;
    }
}
