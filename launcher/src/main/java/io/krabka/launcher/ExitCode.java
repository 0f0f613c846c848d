package io.krabka.launcher;

import io.krabka.kernel.broker.BrokerConfigException;
import io.krabka.kernel.format.FormatException;
import io.krabka.kernel.log.MetaPropertiesException;
import io.krabka.kernel.plugin.PluginLoadException;
import io.krabka.kernel.restore.LogDirNotEmptyException;
import io.krabka.kernel.restore.MaterializeException;
import io.krabka.kernel.restore.RestoreException;
import io.krabka.kernel.restore.RestoreIntegrityException;
import io.krabka.kernel.restore.UnreadableArchiveException;
import io.krabka.kernel.restore.bound.InvalidRestoreArgumentException;
import io.krabka.spi.plugin.ConfigException;

/**
 * The exit codes of {@code krabka}, defined here and nowhere else, and the one mapping of the exceptions commands
 * meet to them ({@link #of}). Commands that grade their outcome more finely (restore, verify) add theirs here too,
 * documented in docs/commands.md.
 */
final class ExitCode {
    /** Done. */
    static final int OK = 0;
    /** The command ran and failed. */
    static final int FAILURE = 1;
    /** Wrong flags or arguments: nothing was done. */
    static final int USAGE = 2;
    /**
     * {@code format}: a log directory is formatted already (without {@code --ignore-formatted}), holds foreign
     * files, or belongs to another cluster or node. Nothing was written.
     */
    static final int STORAGE_REFUSED = 3;
    /** {@code format}: writing failed (nothing is left formatted). */
    static final int WRITE_FAILED = 4;
    /** {@code format}: an invalid {@code --feature}, {@code --release-version} or quorum combination. */
    static final int INVALID_FEATURES = 5;
    /**
     * {@code broker}: log directories failed while it served (an I/O error or a failed fsync took them offline)
     * and none is left, or the metadata log's failed: it shut down by itself.
     */
    static final int LOG_DIRS_FAILED = 6;
    /** {@code verify}: tampering found, or a chain tip that differs from the one expected. */
    static final int VERIFY_TAMPERED = 1;
    /**
     * {@code verify}: nothing tampered, but not everything attested: unsigned or untrusted manifests, a chain
     * restart (without {@code --allow-epoch-restarts}), orphans (with {@code --strict-orphans}), incomplete uploads.
     */
    static final int VERIFY_INCOMPLETE = 3;
    /**
     * {@code verify} and {@code restore}: the archive cannot be read (a missing bucket or directory, refused
     * credentials, a store plugin that refuses its settings), or, for {@code restore}, holds nothing to restore.
     */
    static final int ARCHIVE_UNREADABLE = 4;
    /**
     * {@code restore}: the target log directory exists and holds something (or is not a directory); it was left
     * untouched, and the archive was not opened.
     */
    static final int RESTORE_TARGET_NOT_EMPTY = 3;
    /**
     * {@code restore}: a segment read from the archive cannot be trusted: a CRC or framing failure, a truncated or
     * torn copy, a failed authentication, or the archive disagreeing with {@code --rlmm-snapshot}.
     */
    static final int RESTORE_INTEGRITY = 5;
    /** {@code restore}: writing the target failed; what the restore had written is removed again. */
    static final int RESTORE_WRITE_FAILED = 6;

    private ExitCode() {}

    /**
     * The exit code of a failure a command stops on: the one place an exception becomes an exit code. Settings or
     * plugins the command cannot use are a usage error, whichever command meets them: nothing was done.
     */
    static int of(Exception failure) {
        return switch (failure) {
            case BrokerConfigException _, ConfigException _, PluginLoadException _ -> USAGE;
            case MetaPropertiesException _ -> STORAGE_REFUSED;
            case FormatException format ->
                switch (format.kind()) {
                    case ALREADY_FORMATTED, CONFLICT -> STORAGE_REFUSED;
                    case INVALID_VOTERS, INVALID_BOOTSTRAP_RECORD -> USAGE;
                    case IO_ERROR -> WRITE_FAILED;
                    case INVALID_FEATURES -> INVALID_FEATURES;
                };
            case RestoreException restore ->
                switch (restore) {
                    case InvalidRestoreArgumentException _ -> USAGE;
                    case LogDirNotEmptyException _ -> RESTORE_TARGET_NOT_EMPTY;
                    case UnreadableArchiveException _ -> ARCHIVE_UNREADABLE;
                    case RestoreIntegrityException _ -> RESTORE_INTEGRITY;
                    case MaterializeException _ -> RESTORE_WRITE_FAILED;
                };
            default -> FAILURE;
        };
    }
}
