/**
 * The signed record of a copy its writer gave up on ({@link io.krabka.archive.abandon.AbandonmentRecord}), which a
 * write-once archive leaves where it cannot delete: Krabka's addition to the original format.
 */
package io.krabka.archive.abandon;
