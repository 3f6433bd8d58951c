package seckill.settlement;

import java.util.Optional;

import org.eclipse.microprofile.config.Config;

/**
 * The settlement module's settings, read once: whether this instance runs the sweeps
 * ({@code seckill.settlement.enabled}), how often the timeout sweep, the outbox relay and
 * reconciliation run, the timeout sweep's page, whether a halt in doubt is lifted automatically,
 * the payment callbacks' HMAC key ({@code seckill.payment.hmac-key}, empty: callbacks refused) and
 * how long a sale's Redis keys outlive its end ({@code seckill.reservation.keys-outlive-end-seconds}),
 * and how many unsettled events reconciliation reads from a bucket in one atomic step
 * ({@code seckill.settlement.snapshot-page-size}).
 */
record SettlementSettings(boolean enabled, long timeoutScanSeconds, long relayMillis, long reconcileSeconds,
                          int timeoutPageSize, boolean autoResume, Optional<String> paymentKey,
                          long keysOutliveEndSeconds, int snapshotPageSize) {

    static SettlementSettings from(Config config) {
        return new SettlementSettings(
                config.getOptionalValue("seckill.settlement.enabled", Boolean.class).orElse(true),
                config.getOptionalValue("seckill.settlement.timeout-scan-seconds", Long.class).orElse(2L),
                config.getOptionalValue("seckill.settlement.relay-millis", Long.class).orElse(500L),
                config.getOptionalValue("seckill.settlement.reconcile-seconds", Long.class).orElse(60L),
                config.getOptionalValue("seckill.settlement.timeout-page-size", Integer.class).orElse(100),
                config.getOptionalValue("seckill.settlement.auto-resume", Boolean.class).orElse(true),
                config.getOptionalValue("seckill.payment.hmac-key", String.class).filter(k -> !k.isBlank()),
                config.getOptionalValue("seckill.reservation.keys-outlive-end-seconds", Long.class).orElse(259_200L),
                config.getOptionalValue("seckill.settlement.snapshot-page-size", Integer.class).orElse(10_000));
    }
}
