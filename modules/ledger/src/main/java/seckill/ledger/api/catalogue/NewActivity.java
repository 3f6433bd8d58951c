package seckill.ledger.api.catalogue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Command: register a flash-sale activity with its window, the time a buyer has to pay after the
 * order is created, and its SKUs. Validation of the shape happens at the edge; this record only
 * refuses what can never be stored.
 */
public record NewActivity(String name, Instant startsAt, Instant endsAt, Duration paymentWindow, List<SkuLine> skus) {

    public NewActivity {
        if (name == null || name.isBlank() || startsAt == null || endsAt == null || !endsAt.isAfter(startsAt)
                || paymentWindow == null || paymentWindow.isNegative() || paymentWindow.isZero()
                || skus == null || skus.isEmpty()) {
            throw new IllegalArgumentException("invalid activity");
        }
        skus = List.copyOf(skus);
    }
}
