/**
 * Topic configurations: Kafka's topic keys, their defaults, validation and broker synonyms, resolved into a
 * {@code LogConfig}.
 */
package io.krabka.kernel.log.config;
