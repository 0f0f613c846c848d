package io.krabka.plugin.worm;

import io.krabka.spi.objectstore.RetentionMode;
import io.krabka.spi.objectstore.StoreProtection;
import io.krabka.spi.plugin.ConfigException;
import java.time.Duration;

/**
 * Whether a store's protection makes an archive: a default retention in compliance mode (S3 Object Lock COMPLIANCE,
 * a locked GCS retention policy) at least {@code min.retention.days} long, so that no one — an operator, an attacker
 * with the broker's credentials, Krabka itself — can delete or overwrite an archived object before then.
 */
final class RetentionCheck {
    private static final System.Logger LOG = System.getLogger(RetentionCheck.class.getName());

    private RetentionCheck() {}

    /**
     * Checks the protection, or with {@code allow.unenforced.retention} warns loudly.
     *
     * @throws ConfigException one line naming the store and what is missing, if it does not and that is not allowed
     */
    static void check(StoreProtection protection, WormConfig config) {
        String missing = missing(protection, config.minRetention());
        if (missing == null) {
            LOG.log(
                    System.Logger.Level.INFO,
                    "Write-once archive on " + protection.location() + ": " + protection.detail());
            return;
        }
        if (!config.allowUnenforcedRetention()) {
            throw new ConfigException("the object store " + protection.location()
                    + " cannot hold a write-once archive: "
                    + missing + " (it reports: " + protection.detail() + "); " + WormConfig.ALLOW_UNENFORCED_RETENTION
                    + "=true accepts it unprotected");
        }
        LOG.log(
                System.Logger.Level.WARNING,
                "UNPROTECTED ARCHIVE: " + protection.location() + " " + missing
                        + "; with " + WormConfig.ALLOW_UNENFORCED_RETENTION
                        + "=true every archived object is guarded by its "
                        + "create-only write alone and can be deleted by whoever may write to the store");
    }

    /** What the protection lacks, or null. */
    private static String missing(StoreProtection protection, Duration min) {
        if (protection.mode() != RetentionMode.COMPLIANCE) {
            return protection.mode() == RetentionMode.NONE
                    ? "it enforces no default retention"
                    : "its default retention can be lifted (not compliance mode or not locked)";
        }
        Duration retention = protection.defaultRetention().orElse(Duration.ZERO);
        if (retention.compareTo(min) < 0) {
            return "its default retention of " + retention.toDays() + " day(s) is shorter than "
                    + WormConfig.MIN_RETENTION_DAYS + "=" + min.toDays();
        }
        return null;
    }
}
