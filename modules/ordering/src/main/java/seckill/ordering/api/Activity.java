package seckill.ordering.api;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A registered activity as the ledger knows it. Immutable once registered, which is what lets
 * every instance cache it.
 */
public record Activity(long id, String name, Instant startsAt, Instant endsAt, Duration paymentWindow,
                       List<SkuLine> skus) {

    /** Where the activity's window stands at {@code now}. */
    public enum Phase { UPCOMING, OPEN, ENDED }

    public Activity {
        skus = List.copyOf(skus);
    }

    public Phase phaseAt(Instant now) {
        if (now.isBefore(startsAt)) {
            return Phase.UPCOMING;
        }
        return now.isBefore(endsAt) ? Phase.OPEN : Phase.ENDED;
    }

    public Optional<SkuLine> sku(long skuId) {
        return skus.stream().filter(s -> s.skuId() == skuId).findFirst();
    }
}
