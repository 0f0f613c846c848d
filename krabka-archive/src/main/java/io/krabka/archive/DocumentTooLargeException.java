package io.krabka.archive;

import java.io.Serial;

/** A document above its size cap, refused before it is parsed (a manifest above {@code MAX_MANIFEST_BYTES}). */
public final class DocumentTooLargeException extends ArchiveFormatException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final long size;
    private final long maxBytes;

    /** A document of {@code size} bytes, above the cap of {@code maxBytes}. */
    public DocumentTooLargeException(DocumentKind document, long size, long maxBytes) {
        super(document, document.description() + " is " + size + " bytes, above the " + maxBytes + " byte cap", null);
        this.size = size;
        this.maxBytes = maxBytes;
    }

    /** The document's size in bytes. */
    public long size() {
        return size;
    }

    /** The cap it is above. */
    public long maxBytes() {
        return maxBytes;
    }
}
