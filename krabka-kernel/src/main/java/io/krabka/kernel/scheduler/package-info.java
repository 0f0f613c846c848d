/**
 * The scheduler the log, the controller, the group coordinator and tiered storage run their periodic and delayed
 * tasks on, as Kafka's {@code KafkaScheduler}. A leaf: it uses no other package of the kernel.
 */
package io.krabka.kernel.scheduler;
