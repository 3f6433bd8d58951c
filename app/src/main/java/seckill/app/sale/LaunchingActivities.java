package seckill.app.sale;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import seckill.ordering.api.Activity;
import seckill.ordering.api.ActivityCatalog;
import seckill.ordering.api.NewActivity;
import seckill.ordering.api.SkuLine;
import seckill.reservation.api.PreheatStock;
import seckill.reservation.api.StockReservations;

/**
 * Launching an activity: its rows go into the ledger first (that gives it its id), then every SKU's
 * stock is preheated into Redis with keys that outlive the sale by a grace period, long enough for
 * every reservation to be settled and reconciled.
 */
@ApplicationScoped
public class LaunchingActivities {

    @Inject
    ActivityCatalog catalog;

    @Inject
    StockReservations reservations;

    @Inject
    @ConfigProperty(name = "seckill.reservation.keys-outlive-end-seconds", defaultValue = "259200")
    long keysOutliveEndSeconds;

    public Activity launch(NewActivity activity) {
        Activity registered = catalog.register(activity);
        for (SkuLine sku : registered.skus()) {
            reservations.preheat(new PreheatStock(registered.id(), sku.skuId(), sku.total(), sku.buckets(),
                    registered.endsAt().plus(Duration.ofSeconds(keysOutliveEndSeconds))));
        }
        return registered;
    }
}
