/**
 * What the archive format's parts share: the key layout ({@link io.krabka.archive.ArchiveLayout}), the kinds of
 * document, and the typed errors of a document that cannot be read ({@link io.krabka.archive.ArchiveFormatException}
 * and its three kinds).
 */
package io.krabka.archive;
