package io.krabka.launcher;

import static io.krabka.launcher.CommandOptions.flag;
import static io.krabka.launcher.CommandOptions.repeatable;
import static io.krabka.launcher.CommandOptions.value;
import static io.krabka.launcher.CommandOptions.values;

import io.krabka.archive.ArchiveLayout;
import io.krabka.archive.verify.AmbiguousExpectedHeadException;
import io.krabka.archive.verify.ArchiveUnreadableException;
import io.krabka.archive.verify.ArchiveVerdict;
import io.krabka.archive.verify.ArchiveVerifier;
import io.krabka.archive.verify.ArchiveVerifyReport;
import io.krabka.archive.verify.ExpectedHeads;
import io.krabka.archive.verify.VerifyGrader;
import io.krabka.archive.verify.VerifyJsonRenderer;
import io.krabka.archive.verify.VerifyOptions;
import io.krabka.archive.verify.VerifyTextRenderer;
import io.krabka.kernel.plugin.PluginDiscovery;
import io.krabka.kernel.plugin.PluginRegistry;
import io.krabka.spi.objectstore.ObjectStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.OptionGroup;
import org.apache.commons.cli.Options;

/**
 * {@code krabka verify}: checks a finished write-once archive from its objects alone — every chain head recomputed,
 * every signature checked against the trusted keys given (never a key a manifest carries), every object a manifest
 * names found at its version with its size (and with {@code --deep} its SHA-256), gaps, abandoned copies and
 * orphans reported — and grades the result: 0 clean, 1 tampered, 3 incomplete attestation, 4 unreadable.
 */
final class VerifyCommand implements Command {
    private final Supplier<PluginRegistry> plugins;

    /** Verifies through the object-store plugins of the distribution named by {@code krabka.home}. */
    VerifyCommand() {
        this(PluginDiscovery::discover);
    }

    VerifyCommand(Supplier<PluginRegistry> plugins) {
        this.plugins = Objects.requireNonNull(plugins, "plugins");
    }

    @Override
    public String name() {
        return "verify";
    }

    @Override
    public String summary() {
        return "Check a write-once archive from its objects alone: chains, signatures, objects, orphans";
    }

    @Override
    public String helpFooter() {
        return "Exit codes: 0 clean; 1 tampering found or a tip differs from --expect-head; 2 bad arguments; "
                + "3 incomplete attestation (unsigned or untrusted manifests, a chain restart without "
                + "--allow-epoch-restarts, orphans with --strict-orphans, incomplete multipart uploads); "
                + "4 the archive cannot be read (a missing bucket or directory, refused credentials). "
                + "Without --expect-head the tail is unverified: removing the newest manifests cannot be seen "
                + "from the archive alone.";
    }

    @Override
    public Options options() {
        OptionGroup source = new OptionGroup()
                .addOption(value("local-dir", "PATH", "The archive in a directory: the local plugin's dir"))
                .addOption(value(
                        "bucket", "NAME", "The archive in an S3 bucket (credentials from the AWS SDK's default chain)"))
                .addOption(value(
                        "gcs-bucket",
                        "NAME",
                        "The archive in a Google Cloud Storage bucket (Application Default Credentials)"));
        source.setRequired(true);
        return new Options()
                .addOptionGroup(source)
                .addOption(value("region", "R", "With --bucket: the bucket's region"))
                .addOption(
                        value(
                                "endpoint",
                                "URL",
                                "With --bucket or --gcs-bucket: the service's URL, for an S3-compatible service or an emulator"))
                .addOption(flag("allow-http", "With --bucket: accept a plain-http --endpoint"))
                .addOption(
                        flag("path-style", "With --bucket: path-style requests, as most S3-compatible services want"))
                .addOption(value("prefix", "P", "The archive's key prefix in the store"))
                .addOption(value("topic", "T", "Check only this topic"))
                .addOption(value("partition", "N", "Check only this partition (of --topic, or of every topic)"))
                .addOption(
                        repeatable("key-id", "ID", "A trusted signing key's id, paired by position with --public-key"))
                .addOption(repeatable("public-key", "PATH", "A trusted Ed25519 public key: 32 raw bytes or PEM"))
                .addOption(
                        repeatable(
                                "expect-head",
                                "[PARTITION_DIR=]HEX",
                                "A chain tip recorded elsewhere, which the archive's must equal; without a directory, of the one partition checked"))
                .addOption(flag("deep", "Also read every object and recompute its SHA-256"))
                .addOption(flag("allow-epoch-restarts", "Accept chains that restarted (grade them clean)"))
                .addOption(flag("strict-orphans", "Grade objects that no manifest names as incomplete attestation"))
                .addOption(value("format", "text|json", "The verdict's format on standard output (default: text)"));
    }

    @Override
    public int run(CommandLine line, Console console) throws CommandException {
        ArchiveSource source = source(line);
        VerifyOptions options = options(line);
        String format = line.getOptionValue("format", "text");
        if (!format.equals("text") && !format.equals("json")) {
            throw CommandException.usage("--format is text or json, not '" + format + "'");
        }
        ArchiveVerifyReport report;
        try (ObjectStore store = source.open(plugins.get());
                TerminalProgress progress = TerminalProgress.onTerminal(console.err(), "verify")) {
            report = ArchiveVerifier.verify(store, options, progress);
        } catch (AmbiguousExpectedHeadException e) {
            throw CommandException.usage("--expect-head: " + e.getMessage());
        } catch (ArchiveUnreadableException e) {
            throw source.unreadable(e.getMessage(), e);
        } catch (IOException e) {
            throw source.unreadable("closing the store failed: " + e.getMessage(), e);
        }
        ArchiveVerdict verdict = VerifyGrader.grade(report, options);
        if (format.equals("json")) {
            console.out().println(new String(VerifyJsonRenderer.write(report, verdict), StandardCharsets.UTF_8));
        } else {
            VerifyTextRenderer.lines(report, verdict).forEach(console.out()::println);
        }
        return switch (verdict.grade()) {
            case OK -> ExitCode.OK;
            case TAMPERED -> ExitCode.VERIFY_TAMPERED;
            case INCOMPLETE -> ExitCode.VERIFY_INCOMPLETE;
        };
    }

    private static ArchiveSource source(CommandLine line) throws CommandException {
        boolean s3 = line.hasOption("bucket");
        boolean gcs = line.hasOption("gcs-bucket");
        for (String s3Only : List.of("region", "allow-http", "path-style")) {
            if (line.hasOption(s3Only) && !s3) {
                throw CommandException.usage("--" + s3Only + " goes with --bucket");
            }
        }
        if (line.hasOption("endpoint") && !s3 && !gcs) {
            throw CommandException.usage("--endpoint goes with --bucket or --gcs-bucket");
        }
        if (s3) {
            return ArchiveSource.s3(
                    line.getOptionValue("bucket"),
                    line.getOptionValue("region"),
                    line.getOptionValue("endpoint"),
                    line.hasOption("allow-http"),
                    line.hasOption("path-style"),
                    Optional.empty());
        }
        if (gcs) {
            return ArchiveSource.gcs(line.getOptionValue("gcs-bucket"), line.getOptionValue("endpoint"), null);
        }
        return ArchiveSource.local(line.getOptionValue("local-dir"));
    }

    private static VerifyOptions options(CommandLine line) throws CommandException {
        VerifyOptions options;
        try {
            options = VerifyOptions.of(ArchiveLayout.underPrefix(line.getOptionValue("prefix", "")));
        } catch (IllegalArgumentException e) {
            throw CommandException.usage("--prefix: " + e.getMessage());
        }
        if (line.hasOption("topic")) {
            options = options.withTopic(line.getOptionValue("topic"));
        }
        if (line.hasOption("partition")) {
            try {
                int partition = Integer.parseInt(line.getOptionValue("partition"));
                if (partition < 0) {
                    throw new NumberFormatException();
                }
                options = options.withPartition(partition);
            } catch (NumberFormatException e) {
                throw CommandException.usage(
                        "--partition is a partition number, not '" + line.getOptionValue("partition") + "'");
            }
        }
        try {
            options = options.withExpectedHeads(ExpectedHeads.parse(values(line, "expect-head")));
        } catch (IllegalArgumentException e) {
            throw CommandException.usage("--expect-head: " + e.getMessage());
        }
        return options.withTrustedKeys(TrustedKeyFlags.read(line, "key-id", "public-key"))
                .withDeep(line.hasOption("deep"))
                .withAllowEpochRestarts(line.hasOption("allow-epoch-restarts"))
                .withStrictOrphans(line.hasOption("strict-orphans"));
    }
}
