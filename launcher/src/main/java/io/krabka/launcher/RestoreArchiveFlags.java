package io.krabka.launcher;

import static io.krabka.launcher.CommandOptions.flag;
import static io.krabka.launcher.CommandOptions.value;

import io.krabka.archive.ArchiveLayout;
import java.util.List;
import java.util.Optional;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.OptionGroup;
import org.apache.commons.cli.Options;

/**
 * {@code krabka restore}'s {@code --archive-*} flags: exactly one backend, its refinements, and the key prefix,
 * turned into the object store plugin's name and settings. A refinement of a backend not selected is an error
 * rather than ignored, so a typo in the backend cannot silently read another archive.
 */
final class RestoreArchiveFlags {
    static final String LOCAL = "archive-local";
    static final String S3_BUCKET = "archive-s3-bucket";
    static final String GCS_BUCKET = "archive-gcs-bucket";
    private static final String S3_REGION = "archive-s3-region";
    private static final String S3_ENDPOINT = "archive-s3-endpoint";
    private static final String S3_ACCESS_KEY_ID = "archive-s3-access-key-id";
    private static final String S3_SECRET_ACCESS_KEY = "archive-s3-secret-access-key";
    private static final String S3_ALLOW_HTTP = "archive-s3-allow-http";
    private static final String GCS_ENDPOINT = "archive-gcs-endpoint";
    private static final String GCS_SERVICE_ACCOUNT_PATH = "archive-gcs-service-account-path";
    private static final String PREFIX = "archive-prefix";

    private static final List<String> S3_ONLY =
            List.of(S3_REGION, S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_ALLOW_HTTP);
    private static final List<String> GCS_ONLY = List.of(GCS_ENDPOINT, GCS_SERVICE_ACCOUNT_PATH);

    private RestoreArchiveFlags() {}

    /** Adds the flags to {@code options}: the backend is required. */
    static Options addTo(Options options) {
        OptionGroup backend = new OptionGroup()
                .addOption(value(
                        LOCAL,
                        "DIR",
                        "Archive: in a directory, the local plugin's dir (objects under DIR/kafka-tiered-storage/)"))
                .addOption(value(
                        S3_BUCKET,
                        "B",
                        "Archive: in an S3 bucket (credentials from the AWS SDK's default chain unless given)"))
                .addOption(value(
                        GCS_BUCKET,
                        "B",
                        "Archive: in a Google Cloud Storage bucket (Application Default Credentials unless given)"));
        backend.setRequired(true);
        return options.addOptionGroup(backend)
                .addOption(value(S3_REGION, "R", "Archive, S3: the bucket's region (default: the SDK's region chain)"))
                .addOption(value(
                        S3_ENDPOINT,
                        "URL",
                        "Archive, S3: an S3-compatible service's URL; requests are then path-style"))
                .addOption(value(
                        S3_ACCESS_KEY_ID, "K", "Archive, S3: a static access key id, with --" + S3_SECRET_ACCESS_KEY))
                .addOption(value(S3_SECRET_ACCESS_KEY, "S", "Archive, S3: the secret of --" + S3_ACCESS_KEY_ID))
                .addOption(flag(S3_ALLOW_HTTP, "Archive, S3: accept a plain-http --" + S3_ENDPOINT))
                .addOption(value(
                        GCS_ENDPOINT,
                        "URL",
                        "Archive, GCS: the service's URL, for an emulator (plain http: no credentials sent)"))
                .addOption(value(GCS_SERVICE_ACCOUNT_PATH, "P", "Archive, GCS: a service account key file"))
                .addOption(value(PREFIX, "P", "Archive: its key prefix in the store (the tier's prefix)"));
    }

    /** The store the flags name. */
    static ArchiveSource source(CommandLine line) throws CommandException {
        boolean s3 = line.hasOption(S3_BUCKET);
        boolean gcs = line.hasOption(GCS_BUCKET);
        refuseUnselected(line, S3_ONLY, s3, S3_BUCKET);
        refuseUnselected(line, GCS_ONLY, gcs, GCS_BUCKET);
        if (s3) {
            if (line.hasOption(S3_ACCESS_KEY_ID) != line.hasOption(S3_SECRET_ACCESS_KEY)) {
                throw CommandException.usage("--" + S3_ACCESS_KEY_ID + " and --" + S3_SECRET_ACCESS_KEY
                        + " are given together or not at all");
            }
            Optional<ArchiveSource.S3Credentials> credentials = line.hasOption(S3_ACCESS_KEY_ID)
                    ? Optional.of(new ArchiveSource.S3Credentials(
                            line.getOptionValue(S3_ACCESS_KEY_ID), line.getOptionValue(S3_SECRET_ACCESS_KEY)))
                    : Optional.empty();
            String endpoint = line.getOptionValue(S3_ENDPOINT);
            // S3-compatible services (Ceph, MinIO) rarely resolve bucket host names; AWS needs no endpoint.
            return ArchiveSource.s3(
                    line.getOptionValue(S3_BUCKET),
                    line.getOptionValue(S3_REGION),
                    endpoint,
                    line.hasOption(S3_ALLOW_HTTP),
                    endpoint != null,
                    credentials);
        }
        if (gcs) {
            return ArchiveSource.gcs(
                    line.getOptionValue(GCS_BUCKET),
                    line.getOptionValue(GCS_ENDPOINT),
                    line.getOptionValue(GCS_SERVICE_ACCOUNT_PATH));
        }
        return ArchiveSource.local(line.getOptionValue(LOCAL));
    }

    /** The archive's layout under {@code --archive-prefix}. */
    static ArchiveLayout layout(CommandLine line) throws CommandException {
        try {
            return ArchiveLayout.underPrefix(line.getOptionValue(PREFIX, ""));
        } catch (IllegalArgumentException e) {
            throw CommandException.usage("--" + PREFIX + ": " + e.getMessage());
        }
    }

    private static void refuseUnselected(CommandLine line, List<String> refinements, boolean selected, String backend)
            throws CommandException {
        for (String refinement : refinements) {
            if (line.hasOption(refinement) && !selected) {
                throw CommandException.usage("--" + refinement + " goes with --" + backend);
            }
        }
    }
}
