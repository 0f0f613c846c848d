package io.krabka.archive;

import java.io.Serial;
import java.util.Objects;

/**
 * A document of the archive format that could not be read as the format defines it. Checked: every reader must
 * decide what an unreadable document means where it found it (a tamper in an archive, a refused receipt in the
 * writer).
 */
public abstract sealed class ArchiveFormatException extends Exception
        permits MalformedDocumentException, UnsupportedFormatVersionException, DocumentTooLargeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final DocumentKind document;

    /** A failure to read a document of the given kind, described by a message. */
    protected ArchiveFormatException(DocumentKind document, String message, Throwable cause) {
        super(message, cause);
        this.document = Objects.requireNonNull(document, "document");
    }

    /** The kind of document that could not be read. */
    public DocumentKind document() {
        return document;
    }
}
