/**
 * The authenticated restore: the verify stage's write-once half, behind
 * {@link io.krabka.kernel.restore.authenticate.ArchiveAuthenticator}. Every rule it shares with {@code krabka verify}
 * is krabka-archive's own ({@code ManifestChain}, {@code AbandonmentCheck}, {@code ManifestJson}); this package
 * adds what a restore needs beyond a grade, and every failure is an {@code AuthenticationException} naming the
 * object (or, for an expected head, the partition directory), except an object a manifest lists that the archive
 * does not hold, which is a {@code TornCopyException}.
 *
 * <h2>A partition, before any of its bytes</h2>
 * Its manifests are walked in key (that is, offset) order, as verify walks them, and the first failure stops the
 * restore: a manifest not at the key its body names (swapped, or replayed from another partition or segment), a
 * break in the chain, a signature that fails under the trusted key — and, where verify only counts them, an
 * unsigned manifest or one signed by a key not trusted (a signature is checked against the key trusted under its
 * key id, never against the key the manifest carries). A copy without a manifest is not covered by the chain and
 * fails, including every copy of the legacy layout, which has no manifests. The tip is then compared with the
 * expected head for the partition's directory, if one is given; an expected head for a directory the archive does
 * not hold fails the first partition authenticated.
 *
 * <h2>Abandoned copies</h2>
 * The driver skips a copy that has an {@code .abandoned} record, so a record is taken at its word only as verify
 * takes it (signed by a trusted key, at the key its own fields name); anything else fails, because a record planted
 * beside a good copy would otherwise drop that copy from the restore without a word. An accepted copy's manifest,
 * if it got that far, is left out of the chain (the retry reused its place), and no check is given for it.
 *
 * <h2>Chain restarts</h2>
 * A restart — a new epoch at seq 0 from genesis — is accepted: only a trusted key can sign the new epoch's
 * manifests, and a writer legitimately restarts when it loses its receipts or is turned on over an existing tier.
 * But a restart is the one place where manifests can be cut from an epoch's end without breaking a link, and an
 * expected head pins only the last epoch's tip. So a restart must not leave offsets behind: the new epoch's first
 * manifest may start at most one above the previous manifest's end offset, and one that starts higher fails as the
 * possible loss of the old epoch's last manifests. Within an epoch, offset gaps are the signed writer's own and are
 * accepted. An epoch never resumes once left, and a whole first epoch missing cannot be told from an archive that
 * began later.
 *
 * <h2>A segment's objects</h2>
 * A copy's listing must be exactly what its manifest lists: every listed object present, at the listed key, of the
 * claimed size and (where both the listing and the manifest record one) version, and no object the manifest does
 * not list. Those beside the {@code .log} are not read (the restore rebuilds indexes). The {@code .log} is read at
 * the version its manifest records, so a later version of the key cannot stand in for it, through a view that
 * hashes and counts what passes; once read, its size and SHA-256 must be the manifest's. Nothing of the bytes is
 * held: per partition only the claims, a few hundred bytes a segment.
 */
package io.krabka.kernel.restore.authenticate;
