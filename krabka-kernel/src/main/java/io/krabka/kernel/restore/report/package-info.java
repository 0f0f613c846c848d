/**
 * The restore's report stage: what a restore did, per partition and segment, with the segments skipped, the
 * authentication and metadata outcomes; rendered as text, or as JSON in the original Krabka's shape.
 */
package io.krabka.kernel.restore.report;
