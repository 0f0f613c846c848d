package io.krabka.kernel.restore;

import java.io.Serial;

/**
 * An authenticated restore found an object that its signed manifest does not vouch for: a bad or untrusted
 * signature, a broken chain, a tip other than the one expected, or bytes whose size, version or SHA-256 differ
 * from the manifest's claim.
 */
public final class AuthenticationException extends RestoreIntegrityException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** The object {@code key} fails authentication as {@code detail} says. */
    public AuthenticationException(String key, String detail) {
        super(key, detail);
    }
}
