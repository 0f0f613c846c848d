package io.krabka.archive;

import java.io.Serial;
import java.util.Optional;

/**
 * A document of a format version this implementation does not read, or with no version at all: the original's
 * {@code UnsupportedChainRecordVersion}, and a manifest's {@code format_version} outside {@code 1..=1}.
 */
public final class UnsupportedFormatVersionException extends ArchiveFormatException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** The version the document states; empty when it states none. */
    private final Long found;

    /**
     * A document of an unsupported version.
     *
     * @param found     the version it states, empty if it has none
     * @param supported the versions read, for the message: "1", "0"
     */
    public UnsupportedFormatVersionException(DocumentKind document, Optional<Long> found, String supported) {
        super(
                document,
                found.map(v -> document.description() + " version " + v + " is not supported (this reads " + supported
                                + ")")
                        .orElse(document.description() + " has no version (this reads " + supported + ")"),
                null);
        this.found = found.orElse(null);
    }

    /** The version the document states; empty when it states none. */
    public Optional<Long> found() {
        return Optional.ofNullable(found);
    }
}
