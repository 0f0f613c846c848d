package io.krabka.archive;

import java.io.Serial;

/**
 * A document that is not what its format allows: not JSON, a missing or unknown field, a value of the wrong type
 * or outside its range, hex of the wrong length. The original's {@code MalformedManifest} and
 * {@code MalformedChainRecord}.
 */
public final class MalformedDocumentException extends ArchiveFormatException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** A malformed document; the detail says where and how, e.g. "body.chain.seq: not an unsigned 64-bit integer". */
    public MalformedDocumentException(DocumentKind document, String detail) {
        this(document, detail, null);
    }

    /** A malformed document, as the JSON parser or a value's validation reported it. */
    public MalformedDocumentException(DocumentKind document, String detail, Throwable cause) {
        super(document, "malformed " + document.description() + ": " + detail, cause);
    }
}
