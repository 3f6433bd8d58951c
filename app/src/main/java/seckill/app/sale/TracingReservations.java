package seckill.app.sale;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;
import seckill.ledger.api.catalogue.ActivityCatalog;
import seckill.ledger.api.LedgerTrace;
import seckill.ledger.api.LedgerTrail;
import seckill.ledger.api.catalogue.SkuLine;
import seckill.reservation.api.EventPosition;
import seckill.reservation.api.RedisTrace;
import seckill.reservation.api.ReservationEvents;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.ReservationTrail;
import seckill.settlement.api.HeldReservation;
import seckill.settlement.api.Reconciliation;
import seckill.settlement.api.ReservationTracking;
import seckill.settlement.api.SkuReconciliation;

/**
 * Support's lookup: follows a reservation through every layer, each read through its owning
 * module's API (the ledger first for the event's position, then Redis, then the ledger once more
 * when it had nothing: an order committed meanwhile is acknowledged only after its commit, so an
 * entry seen acknowledged always has its order in the second read), and judges where it stands.
 * A pending entry idle {@code seckill.trace.stalled-after-seconds} (default: the ordering workers'
 * {@code seckill.ordering.reclaim-idle-seconds}) is a stalled one.
 */
@ApplicationScoped
public class TracingReservations {

    private final ActivityCatalog catalog;
    private final LedgerTrail ledger;
    private final ReservationTrail redis;
    private final ReservationEvents events;
    private final Reconciliation reconciliation;
    private final ReservationTracking tracking;
    private final Duration stalledAfter;

    @Inject
    TracingReservations(ActivityCatalog catalog, LedgerTrail ledger, ReservationTrail redis, ReservationEvents events,
                        Reconciliation reconciliation, ReservationTracking tracking, Config config) {
        this.catalog = catalog;
        this.ledger = ledger;
        this.redis = redis;
        this.events = events;
        this.reconciliation = reconciliation;
        this.tracking = tracking;
        long reclaim = config.getOptionalValue("seckill.ordering.reclaim-idle-seconds", Long.class).orElse(30L);
        this.stalledAfter = Duration.ofSeconds(
                config.getOptionalValue("seckill.trace.stalled-after-seconds", Long.class).orElse(reclaim));
    }

    /** The trace of one reservation; empty when no layer knows it (or the text is no reservation id). */
    public Optional<ReservationTrace> trace(String reservationId) {
        Optional<ReservationId> parsed = ReservationId.parse(reservationId);
        if (parsed.isEmpty()) {
            return Optional.empty();
        }
        ReservationId id = parsed.get();
        Optional<SkuLine> sku = catalog.find(id.activityId()).flatMap(a -> a.sku(id.skuId()));
        if (sku.isEmpty()) {
            return Optional.empty();
        }
        int buckets = sku.get().buckets();
        LedgerTrace inLedger = ledger.follow(id);
        Optional<EventPosition> position = inLedger.eventPosition().isPresent()
                ? Optional.of(new EventPosition(events.streamOf(id.activityId(), id.skuId(), id.bucket(), buckets),
                EventPosition.entryIdOf(inLedger.eventPosition().getAsLong())))
                : Optional.empty();
        RedisTrace inRedis = redis.follow(id, inLedger.buyer(), buckets, position);
        if (inLedger.order().isEmpty() && inLedger.failure().isEmpty()) {
            inLedger = ledger.follow(id);
        }
        boolean buyerHolds = inRedis.buyerRecord().map(RedisTrace.BuyerRecord::holdsThis).orElse(false);
        if (!inLedger.known() && inRedis.mintedTo().isEmpty() && inRedis.entry().id().isEmpty() && !buyerHolds) {
            return Optional.empty();
        }
        Optional<SkuReconciliation> latest = reconciliation.latest(id.activityId()).stream()
                .filter(r -> r.skuId() == id.skuId()).findFirst();
        OptionalLong buyer = inLedger.buyer().isPresent() ? inLedger.buyer() : inRedis.buyer();
        return Optional.of(new ReservationTrace(id.toString(), id.activityId(), id.skuId(), id.bucket(), buckets,
                id.mintedAt(), buyer, inRedis, inLedger, latest, TraceVerdict.judge(facts(inLedger, inRedis), stalledAfter)));
    }

    /**
     * The traces of every reservation a buyer holds in an activity (the ledger's and those Redis
     * holds that the ledger has not seen yet); empty when none. Empty, not a list, when there is no
     * such activity.
     */
    public Optional<List<ReservationTrace>> traceBuyer(long activityId, long buyerId) {
        if (catalog.find(activityId).isEmpty()) {
            return Optional.empty();
        }
        List<ReservationTrace> traces = new ArrayList<>();
        for (HeldReservation held : tracking.heldBy(activityId, buyerId)) {
            trace(held.status().reservationId()).ifPresent(traces::add);
        }
        return Optional.of(traces);
    }

    static TraceVerdict.Facts facts(LedgerTrace ledger, RedisTrace redis) {
        TraceVerdict.Refill refill = ledger.refill().map(r -> r.applied() ? TraceVerdict.Refill.APPLIED
                : TraceVerdict.Refill.WRITTEN).orElse(TraceVerdict.Refill.NONE);
        RedisTrace.StreamEntry entry = redis.entry();
        return new TraceVerdict.Facts(
                ledger.order().map(o -> TraceVerdict.Order.valueOf(o.view().status().name())),
                ledger.failure().map(LedgerTrace.Failure::reason),
                refill,
                TraceVerdict.Entry.valueOf(entry.state().name()),
                entry.consumer(), entry.deliveries(), Duration.ofMillis(entry.idleMillis()),
                ledger.refusals().map(LedgerTrace.Refusals::attempts).orElse(0),
                redis.buyerRecord().map(RedisTrace.BuyerRecord::holdsThis).orElse(false));
    }
}
