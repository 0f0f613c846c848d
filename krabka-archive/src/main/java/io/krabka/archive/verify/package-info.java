/**
 * What {@code krabka verify} runs: {@link io.krabka.archive.verify.ArchiveVerifier} over any object store, the report
 * model, grading in the original's order ({@link io.krabka.archive.verify.VerifyGrader}) and the text and JSON
 * renderings.
 */
package io.krabka.archive.verify;
