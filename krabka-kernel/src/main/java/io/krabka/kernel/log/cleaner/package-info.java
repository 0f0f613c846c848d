/**
 * The log cleaner, Kafka's log compaction on Krabka's log engine: {@link io.krabka.kernel.log.cleaner.LogCleaner}
 * and its threads keep the latest record of each key of compacted topics, write cleaned segments to
 * {@code .cleaned} files and swap them in crash-safely, and record their progress in each log directory's
 * {@code cleaner-offset-checkpoint}. A package of its own: a dozen classes with one job each, beside the log
 * engine they build on, which knows nothing of them but the log manager's calls.
 */
package io.krabka.kernel.log.cleaner;
