package seckill.settlement;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;

import org.eclipse.microprofile.config.Config;
import seckill.settlement.rules.Price;

/**
 * The settlement module's settings, read once: whether this instance runs the sweeps
 * ({@code seckill.settlement.enabled}), how often the timeout sweep, the outbox relay and
 * reconciliation run, the timeout sweep's page, whether a halt in doubt is lifted automatically,
 * the payment callbacks' HMAC key ({@code seckill.payment.hmac-key}, empty: callbacks refused), how
 * far a callback's signed timestamp may be from this clock ({@code seckill.payment.signature-window-seconds}),
 * the price a payment must equal when its order has none of its own, its SKU created without a price
 * ({@code seckill.payment.price} and {@code seckill.payment.currency}; either missing: such callbacks
 * refused, a malformed one fails the start),
 * how long a sale's Redis keys outlive its end ({@code seckill.reservation.keys-outlive-end-seconds})
 * how many unsettled events reconciliation reads from a bucket in one atomic step
 * ({@code seckill.settlement.snapshot-page-size}) and how long an operator's resume waits for a
 * reconciliation pass already running on the instance ({@code seckill.settlement.resume-wait-seconds}),
 * and whether it runs the rehearsals' sweeps when a shadow database is configured
 * ({@code seckill.rehearsal.settlement.enabled}, by default as {@code seckill.settlement.enabled}; docs/rehearsal.md).
 */
record SettlementSettings(boolean enabled, long timeoutScanSeconds, long relayMillis, long reconcileSeconds,
                          int timeoutPageSize, boolean autoResume, Optional<String> paymentKey,
                          long keysOutliveEndSeconds, Duration signatureWindow, Optional<BigDecimal> price,
                          Optional<String> currency, int snapshotPageSize, Duration resumeWait,
                          boolean rehearsalsEnabled) {

    SettlementSettings {
        try {
            // a malformed price fails the start here, not the first callback
            price(price, currency);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("seckill.payment.price / seckill.payment.currency: " + e.getMessage(), e);
        }
    }

    static SettlementSettings from(Config config) {
        boolean enabled = config.getOptionalValue("seckill.settlement.enabled", Boolean.class).orElse(true);
        return new SettlementSettings(
                enabled,
                config.getOptionalValue("seckill.settlement.timeout-scan-seconds", Long.class).orElse(2L),
                config.getOptionalValue("seckill.settlement.relay-millis", Long.class).orElse(500L),
                config.getOptionalValue("seckill.settlement.reconcile-seconds", Long.class).orElse(60L),
                config.getOptionalValue("seckill.settlement.timeout-page-size", Integer.class).orElse(100),
                config.getOptionalValue("seckill.settlement.auto-resume", Boolean.class).orElse(true),
                config.getOptionalValue("seckill.payment.hmac-key", String.class).filter(k -> !k.isBlank()),
                config.getOptionalValue("seckill.reservation.keys-outlive-end-seconds", Long.class).orElse(259_200L),
                Duration.ofSeconds(positive("seckill.payment.signature-window-seconds",
                        config.getOptionalValue("seckill.payment.signature-window-seconds", Long.class).orElse(300L))),
                config.getOptionalValue("seckill.payment.price", String.class).filter(p -> !p.isBlank())
                        .map(p -> decimal("seckill.payment.price", p)),
                config.getOptionalValue("seckill.payment.currency", String.class).filter(c -> !c.isBlank())
                        .map(String::trim),
                config.getOptionalValue("seckill.settlement.snapshot-page-size", Integer.class).orElse(10_000),
                Duration.ofSeconds(config.getOptionalValue("seckill.settlement.resume-wait-seconds", Long.class)
                        .orElse(25L)),
                config.getOptionalValue("seckill.rehearsal.settlement.enabled", Boolean.class).orElse(enabled));
    }

    /** The price a payment of an order without its own must equal, when both halves are configured. */
    Optional<Price> paymentPrice() {
        return price(price, currency);
    }

    private static Optional<Price> price(Optional<BigDecimal> amount, Optional<String> currency) {
        return amount.isPresent() && currency.isPresent() ? Optional.of(new Price(amount.get(), currency.get()))
                : Optional.empty();
    }

    private static long positive(String key, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(key + " must be positive, not " + value);
        }
        return value;
    }

    private static BigDecimal decimal(String key, String text) {
        try {
            return new BigDecimal(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " is not a decimal amount: " + text, e);
        }
    }
}
