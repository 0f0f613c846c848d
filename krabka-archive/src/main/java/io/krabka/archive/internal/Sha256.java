package io.krabka.archive.internal;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** The JDK's SHA-256, which every Java runtime has. */
public final class Sha256 {

    private Sha256() {}

    /** A fresh SHA-256 digest. */
    public static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
