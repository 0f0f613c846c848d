/**
 * The restore's bound stage: the {@code --to-offset}, {@code --to-timestamp} and {@code --exclude-*} flags parsed
 * into values, checked together before the archive is read ({@link io.krabka.kernel.restore.bound.RestoreBounds}),
 * and turned into a decision per batch and, where the header cannot tell, per record.
 *
 * <h2>The cut</h2>
 * Each partition keeps a prefix of its log: it ends before the first record that is past the cut, and every
 * record after that is dropped too, so the restored log is the archived one as it stood at the bound.
 * <ul>
 *   <li>{@code --to-offset T:P=N} keeps offsets at or below {@code N}, exactly. A batch that straddles {@code N}
 *   (base offset at or below it, last offset above) is filtered to its records at or below {@code N}, so the
 *   restored partition ends on a batch boundary at {@code N} itself, never short of it or past it; the batches
 *   whose base offset is above {@code N} are dropped, and the driver may stop reading the partition once
 *   {@code isComplete} says so.</li>
 *   <li>{@code --to-timestamp} keeps records strictly before the instant, in every partition. Kafka's CreateTime
 *   timestamps are not ordered in a log, so the header tells only that a whole batch is before the instant
 *   (max timestamp below it: kept) or, under LogAppendTime, that all of it is after (dropped); otherwise each
 *   record is decided, and the first at or after the instant ends the partition. A record without a timestamp
 *   (-1) is never past this cut. The end of a partition cannot be known from an offset here.</li>
 *   <li>Both may be given; a partition ends at whichever cut comes first.</li>
 * </ul>
 *
 * <h2>Exclusions</h2>
 * {@code --exclude-offset}, {@code --exclude-key}, {@code --exclude-header} and {@code --exclude-producer-id}
 * are OR-combined: one that matches excludes the record. An excluded record leaves an empty slot: its batch stays
 * with its offset range, and a batch whose records are all excluded is written as a header without records, so
 * no later offset moves. Exclusions read raw bytes with no schema decoding: a key or header value is seen by the
 * regex as ISO-8859-1 text, one char per byte (U+0000 to U+00FF), so {@code \xFF} names byte 0xFF and
 * {@code .} one byte, whatever the encoding, valid UTF-8 or not. Regexes are found anywhere in the bytes (anchor
 * with {@code ^} and {@code \z}), and only byte 0x0A ends a line, for {@code .} and for {@code $}, which
 * java.util.regex lets match before a final line end.
 *
 * <h2>Transaction markers</h2>
 * A control batch (a COMMIT or ABORT marker) is cut like any batch but never excluded, not even when its producer
 * id or offset is: an emptied transactional batch still opens its transaction when Kafka rebuilds the producer
 * state from the log, and only the marker closes it; without it the last stable offset would stay pinned and
 * read-committed consumers would stall. A transaction whose marker falls past the cut is left open by this stage.
 */
package io.krabka.kernel.restore.bound;
