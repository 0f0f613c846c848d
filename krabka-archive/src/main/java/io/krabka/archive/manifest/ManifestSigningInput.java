package io.krabka.archive.manifest;

import io.krabka.archive.internal.CanonicalOutput;
import java.nio.charset.StandardCharsets;

/**
 * The bytes a manifest's Ed25519 signature signs: the chain head, bound to the key id and the chain position,
 * never the body itself (the original's {@code signing.rs}):
 * {@code "krabka-worm-manifest-v1\0" ‖ kid_len (u64 BE) ‖ kid (UTF-8) ‖ epoch_id (16) ‖ seq (u64 BE) ‖ head (32)}.
 */
public final class ManifestSigningInput {

    /** The domain that starts the input, with its trailing NUL: {@code MANIFEST_DOMAIN}. */
    public static final byte[] DOMAIN = "krabka-worm-manifest-v1\0".getBytes(StandardCharsets.US_ASCII);

    private ManifestSigningInput() {}

    /** The signing input of a manifest at {@code chain} with {@code head}, signed under {@code keyId}. */
    public static byte[] of(String keyId, ChainStamp chain, ChainHead head) {
        return new CanonicalOutput(DOMAIN.length + 8 + keyId.length() * 3 + 16 + 8 + 32)
                .raw(DOMAIN)
                .string(keyId)
                .uuid(chain.epochId())
                .int64(chain.seq())
                .raw(head.bytes())
                .toByteArray();
    }
}
