package seckill.app.sale;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.catalogue.ActivityCatalog;
import seckill.ledger.api.catalogue.SkuLine;
import seckill.queue.api.LineSales;
import seckill.queue.api.QueueWindow;
import seckill.redis.World;
import seckill.reservation.api.RemainingStock;

/**
 * What the waiting line needs of the sales (issue #33), from the catalogue and reservation's api: the
 * activities whose line may move, in both worlds (the list of live ids read from the ledgers at most every two seconds; the
 * activities themselves from memory), and the units left over an activity's SKUs, read from Redis.
 */
@ApplicationScoped
public class SalesForTheLine implements LineSales {

    private static final long RELIST_MILLIS = 2000;

    private final ActivityCatalog catalog;
    private final RemainingStock stock;
    private final Clock clock;
    private volatile List<Long> liveIds = List.of();
    private volatile long listedAt;
    private volatile boolean listed;

    @Inject
    SalesForTheLine(ActivityCatalog catalog, RemainingStock stock, Clock clock) {
        this.catalog = catalog;
        this.stock = stock;
        this.clock = clock;
    }

    /** For CDI's proxy. */
    SalesForTheLine() {
        this(null, null, null);
    }

    @Override
    public List<LiveSale> live(Instant now, Instant startsBefore) {
        long at = clock.millis();
        if (!listed || at - listedAt >= RELIST_MILLIS || at < listedAt) {
            // both worlds: a rehearsal's line moves as a real one's (its keys follow from its id)
            List<Long> ids = new ArrayList<>(catalog.endingAfter(World.REAL, now));
            ids.addAll(catalog.endingAfter(World.REHEARSAL, now));
            liveIds = List.copyOf(ids);
            listedAt = at;
            listed = true;
        }
        List<LiveSale> live = new ArrayList<>();
        for (long id : liveIds) {
            catalog.find(id).filter(a -> a.startsAt().isBefore(startsBefore) && a.endsAt().isAfter(now))
                    .ifPresent(a -> live.add(new LiveSale(a.id(), new QueueWindow(a.startsAt(), a.endsAt()))));
        }
        return live;
    }

    @Override
    public OptionalLong unitsLeft(long activityId) {
        Optional<Activity> activity = catalog.find(activityId);
        if (activity.isEmpty()) {
            return OptionalLong.empty();
        }
        long left = 0;
        try {
            for (SkuLine sku : activity.get().skus()) {
                Optional<Long> remaining = stock.remaining(activityId, sku.skuId(), sku.buckets());
                if (remaining.isEmpty()) {
                    return OptionalLong.empty();
                }
                left += Math.max(0, remaining.get());
            }
        } catch (RuntimeException unavailable) {
            // not known now: the line neither closes nor opens on a guess
            return OptionalLong.empty();
        }
        return OptionalLong.of(left);
    }
}
