package seckill.app.sale;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.catalogue.ActivityCatalog;
import seckill.ledger.api.IdempotentRequest;
import seckill.ledger.api.catalogue.NewActivity;
import seckill.ledger.api.LedgerHoldings;
import seckill.ledger.api.SkuHoldings;
import seckill.ledger.api.catalogue.SkuLine;
import seckill.reservation.api.PreheatStock;
import seckill.reservation.api.RestoreStock;
import seckill.reservation.api.Preheating;
import seckill.redis.World;

/**
 * Launching an activity: its rows go into the ledger first (that gives it its id), then every SKU's
 * stock is preheated into Redis with keys that outlive the sale by a grace period, long enough for
 * every reservation to be settled and reconciled. A launch retried under the same idempotency key
 * finds the activity it registered and puts back only what Redis lacks, from the ledger's view; the
 * same is what an operator asks for when Redis lost a SKU's stock.
 */
@ApplicationScoped
public class LaunchingActivities {

    private final ActivityCatalog catalog;
    private final Preheating preheating;
    private final LedgerHoldings ledger;
    private final long keysOutliveEndSeconds;
    private final boolean rehearsalsAvailable;

    @Inject
    LaunchingActivities(ActivityCatalog catalog,
                        Preheating preheating,
                        LedgerHoldings ledger,
                        @ConfigProperty(name = "seckill.reservation.keys-outlive-end-seconds", defaultValue = "259200") long keysOutliveEndSeconds,
                        @ConfigProperty(name = "seckill.rehearsal.launch.enabled", defaultValue = "true") boolean rehearsalLaunches,
                        @ConfigProperty(name = "seckill.rehearsal.db.url") Optional<String> shadowDatabase) {
        this.catalog = catalog;
        this.preheating = preheating;
        this.ledger = ledger;
        this.keysOutliveEndSeconds = keysOutliveEndSeconds;
        this.rehearsalsAvailable = rehearsalLaunches && shadowDatabase.filter(url -> !url.isBlank()).isPresent();
    }

    /**
     * Whether {@code "rehearsal": true} launches a rehearsal (issue #34, docs/rehearsal.md): only with
     * {@code seckill.rehearsal.launch.enabled} (default true since the rehearsal path is apart end to end, halt per
     * world included; false refuses launches on this instance) and a shadow database ({@code seckill.rehearsal.db.url});
     * otherwise it answers 501, nothing created.
     */
    public boolean rehearsalsAvailable() {
        return rehearsalsAvailable;
    }

    /**
     * Launches an activity in {@code world}: registered in that world's catalogue (a rehearsal in the shadow
     * ledger, its id from 10^15), then preheated (a rehearsal's keys are {@code rh:} by its id).
     *
     * @throws IllegalStateException for a rehearsal when {@link #rehearsalsAvailable()} is false
     */
    public Launch launch(World world, NewActivity activity, Optional<IdempotentRequest> request) {
        if (world == World.REHEARSAL && !rehearsalsAvailable) {
            throw new IllegalStateException("rehearsal launches are off (docs/rehearsal.md)");
        }
        if (request.isEmpty()) {
            Activity registered = catalog.register(world, activity);
            preheat(registered);
            return new Launch(registered, false);
        }
        ActivityCatalog.Registration registration = catalog.register(world, activity, request.get());
        if (registration.created()) {
            preheat(registration.activity());
        } else {
            restoreMissing(registration.activity());
        }
        return new Launch(registration.activity(), !registration.created());
    }

    /** What a launch came to: the activity, and whether it was registered by an earlier request. */
    public record Launch(Activity activity, boolean replayed) {
    }

    public Activity launch(NewActivity activity) {
        Activity registered = catalog.register(activity);
        preheat(registered);
        return registered;
    }

    /**
     * Launches once per idempotency key: a retry of a launch whose preheat failed finishes it.
     *
     * @throws IdempotentRequest.Conflict when the key was used for a different activity
     */
    public Launch launch(NewActivity activity, IdempotentRequest request) {
        ActivityCatalog.Registration registration = catalog.register(activity, request);
        if (registration.created()) {
            preheat(registration.activity());
        } else {
            restoreMissing(registration.activity());
        }
        return new Launch(registration.activity(), !registration.created());
    }

    /** Puts back every bucket of the activity that Redis lacks, from the ledger's view; per SKU, per bucket. */
    public Map<Long, List<RestoreStock.Outcome>> restoreMissing(Activity activity) {
        Map<Long, List<RestoreStock.Outcome>> outcomes = new LinkedHashMap<>();
        for (SkuLine sku : activity.skus()) {
            SkuHoldings holdings = ledger.holdings(activity.id(), sku.skuId());
            List<RestoreStock.BucketLedger> buckets = new ArrayList<>();
            for (var figures : holdings.buckets()) {
                // the refilled units and ids from one list, so Redis's refilled set and counter agree
                List<SkuHoldings.Refilled> refilled = holdings.refilled().stream()
                        .filter(r -> r.bucket() == figures.bucket()).toList();
                buckets.add(new RestoreStock.BucketLedger(figures.bucket(), figures.orderedUnits() + figures.failedUnits(),
                        refilled.stream().mapToLong(SkuHoldings.Refilled::quantity).sum(), figures.lastEvent(),
                        refilled.stream().map(SkuHoldings.Refilled::reservationId).toList()));
            }
            List<RestoreStock.Holder> holders = holdings.holders().stream()
                    .map(h -> new RestoreStock.Holder(h.userId(), h.reservationId())).toList();
            outcomes.put(sku.skuId(), preheating.restore(new RestoreStock(activity.id(), sku.skuId(), sku.total(),
                    sku.buckets(), keysExpireAt(activity), buckets, holders)));
        }
        return outcomes;
    }

    private void preheat(Activity registered) {
        for (SkuLine sku : registered.skus()) {
            preheating.preheat(new PreheatStock(registered.id(), sku.skuId(), sku.total(), sku.buckets(),
                    keysExpireAt(registered)));
        }
    }

    private Instant keysExpireAt(Activity activity) {
        return activity.endsAt().plus(Duration.ofSeconds(keysOutliveEndSeconds));
    }
}
