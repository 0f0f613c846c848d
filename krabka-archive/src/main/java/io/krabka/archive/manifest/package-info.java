/**
 * Segment manifests: the model ({@link io.krabka.archive.manifest.SegmentManifest} and its parts), their strict JSON
 * ({@link io.krabka.archive.manifest.ManifestJson}), the canonical bytes the chain hashes
 * ({@link io.krabka.archive.manifest.CanonicalManifestBytes}), the chain head, the signing input, and the sealing a
 * writer calls ({@link io.krabka.archive.manifest.ManifestSealer}).
 */
package io.krabka.archive.manifest;
