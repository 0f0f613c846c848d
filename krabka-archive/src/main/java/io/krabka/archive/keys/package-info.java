/**
 * Ed25519 keys over BouncyCastle: the writer's {@link io.krabka.archive.keys.SigningKey} (PKCS#8), the verifier's
 * {@link io.krabka.archive.keys.TrustedKeys} by key id, and strict verification
 * ({@link io.krabka.archive.keys.VerificationKey}).
 */
package io.krabka.archive.keys;
