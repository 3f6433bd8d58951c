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

    public Activity {
        skus = List.copyOf(skus);
    }

    public Optional<SkuLine> sku(long skuId) {
        return skus.stream().filter(s -> s.skuId() == skuId).findFirst();
    }
}
