package seckill.ledger;

import java.util.Optional;

import org.eclipse.microprofile.config.Config;

/**
 * The ledger module's settings, read once from {@code seckill.ordering.*}: whether this instance
 * runs the stream consumers, how many, how many events per read and per transaction, the idle pause,
 * when a dead consumer's events are claimed, the consumer name, the longest back-off during an
 * outage, how many refusals by the ledger itself dead-letter an event, how long an unknown
 * activity id is answered from memory (a flood of lookups for a bad id stays off the database), how
 * often the streams the ledger says must exist are compared with the stream registry, how often the
 * namespace's binding to this ledger is checked again, and how long a
 * sale's Redis keys outlive its end ({@code seckill.reservation.keys-outlive-end-seconds}, the same
 * key the launch uses), and how many consumer threads order the rehearsals' streams into the shadow ledger
 * ({@code seckill.rehearsal.workers}, docs/rehearsal.md; none without a shadow ledger).
 */
public record OrderingSettings(boolean enabled, int workers, int batchSize, long idlePollMillis, long reclaimIdleSeconds,
                        Optional<String> consumerName, long maxBackoffMillis, int maxDeliveries,
                        long activityMissMillis, long streamsRepairSeconds, long keysOutliveEndSeconds,
                        long bindingCheckSeconds, int rehearsalWorkers) {

    static OrderingSettings from(Config config) {
        return new OrderingSettings(
                config.getOptionalValue("seckill.ordering.enabled", Boolean.class).orElse(true),
                config.getOptionalValue("seckill.ordering.workers", Integer.class).orElse(2),
                config.getOptionalValue("seckill.ordering.batch-size", Integer.class).orElse(100),
                config.getOptionalValue("seckill.ordering.idle-poll-millis", Long.class).orElse(20L),
                config.getOptionalValue("seckill.ordering.reclaim-idle-seconds", Long.class).orElse(30L),
                config.getOptionalValue("seckill.ordering.consumer-name", String.class).filter(n -> !n.isBlank()),
                config.getOptionalValue("seckill.ordering.max-backoff-millis", Long.class).orElse(5000L),
                config.getOptionalValue("seckill.ordering.max-deliveries", Integer.class).orElse(5),
                config.getOptionalValue("seckill.ordering.activity-miss-millis", Long.class).orElse(1_000L),
                config.getOptionalValue("seckill.ordering.streams-repair-seconds", Long.class).orElse(5L),
                config.getOptionalValue("seckill.reservation.keys-outlive-end-seconds", Long.class).orElse(259_200L),
                config.getOptionalValue("seckill.ordering.binding-check-seconds", Long.class).orElse(5L),
                config.getOptionalValue("seckill.rehearsal.workers", Integer.class).orElse(1));
    }
}
