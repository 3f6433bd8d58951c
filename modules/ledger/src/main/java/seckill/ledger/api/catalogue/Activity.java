package seckill.ledger.api.catalogue;

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
        // asked on every purchase: a loop, not a stream (it showed in the purchase path's profile)
        for (SkuLine sku : skus) {
            if (sku.skuId() == skuId) {
                return Optional.of(sku);
            }
        }
        return Optional.empty();
    }
}
