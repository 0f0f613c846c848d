/**
 * The write-once (WORM) archive format, in one implementation for every reader and writer: segment manifests,
 * their canonical bytes, hash chain and Ed25519 signatures ({@code io.krabka.archive.manifest}), the signing and
 * trusted keys ({@code io.krabka.archive.keys}), the chain receipt a segment's KIP-405 custom metadata carries
 * ({@code io.krabka.archive.chain}), the record of an abandoned copy ({@code io.krabka.archive.abandon}) and the
 * archive verifier behind {@code krabka verify} ({@code io.krabka.archive.verify}). Byte-compatible with the
 * original Rust Krabka's archives; the module README says where it differs and why.
 */
module io.krabka.archive {
    requires transitive io.krabka.spi;
    requires io.krabka.objectstore;
    requires com.fasterxml.jackson.databind;
    requires org.bouncycastle.provider;

    exports io.krabka.archive;
    exports io.krabka.archive.abandon;
    exports io.krabka.archive.chain;
    exports io.krabka.archive.keys;
    exports io.krabka.archive.manifest;
    exports io.krabka.archive.verify;
}
