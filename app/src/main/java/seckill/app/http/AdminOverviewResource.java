package seckill.app.http;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Gauge;
import org.eclipse.microprofile.metrics.MetricID;
import org.eclipse.microprofile.metrics.MetricRegistry;
import seckill.admission.api.Admission;
import seckill.admission.api.SaleWindow;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.catalogue.ActivityCatalog;
import seckill.ledger.api.catalogue.SkuLine;
import seckill.queue.api.QueueFigures;
import seckill.redis.World;
import seckill.reservation.api.ReservationUnavailable;
import seckill.reservation.api.RemainingStock;
import seckill.settlement.api.Reconciliation;
import seckill.settlement.api.SkuReconciliation;

/**
 * What the operations view at {@code /ops} polls once a second: per live activity, SKU and bucket
 * the stock left and the latest reconciliation, this instance's halt state, and the running totals
 * an operator watches (purchases by outcome, orders created, stream pending and lag, outbox backlog)
 * as counters, so the page turns two polls into rates. Reads only; each figure comes through the
 * owning module's API or its published metric.
 */
@AdminOnly
@Path("/api/v1/admin/overview")
@ApplicationScoped
public class AdminOverviewResource {

    /** Activities that ended this long ago are still shown: their orders are still being paid. */
    private static final Duration RECENTLY_ENDED = Duration.ofHours(1);

    private final ActivityCatalog catalog;
    private final RemainingStock stock;
    private final Admission admission;
    private final Reconciliation reconciliation;
    private final MetricRegistry metrics;
    private final QueueFigures queue;
    private final Clock clock;

    @Inject
    AdminOverviewResource(ActivityCatalog catalog, RemainingStock stock, Admission admission,
                          Reconciliation reconciliation, MetricRegistry metrics, QueueFigures queue, Clock clock) {
        this.catalog = catalog;
        this.stock = stock;
        this.admission = admission;
        this.reconciliation = reconciliation;
        this.metrics = metrics;
        this.queue = queue;
        this.clock = clock;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String overview(@QueryParam("activity") String activityText) {
        Instant now = clock.instant();
        List<Long> ids = activityText == null || activityText.isBlank()
                ? catalog.endingAfter(now.minus(RECENTLY_ENDED))
                : List.of(Buyer.pathId(activityText, "activity"));
        JsonArrayBuilder activities = Jsons.PROVIDER.createArrayBuilder();
        for (long id : ids) {
            catalog.find(id).ifPresent(activity -> activities.add(activity(activity, now)));
        }
        JsonObjectBuilder json = Jsons.PROVIDER.createObjectBuilder()
                .add("serverTime", now.toString())
                .add("sales", AdminSalesResource.salesState(admission))
                .add("totals", totals(World.REAL));
        // a rehearsal's figures apart, never in the real totals; present while this instance has any rehearsal
        // series (the rehearsal ordering workers register theirs at their start)
        if (metrics.getMetricIDs().stream().anyMatch(id -> id.getName().startsWith("seckill.") && in(id, World.REHEARSAL))) {
            json.add("rehearsalTotals", totals(World.REHEARSAL));
        }
        return json
                .add("streamPending", gauge("seckill.stream.pending"))
                .add("streamLag", gauge("seckill.stream.lag"))
                .add("outboxBacklog", gauge("seckill.outbox.backlog", World.REAL))
                .add("activities", activities)
                .build().toString();
    }

    /** The running totals of one world's series (a series without the label is the real world's). */
    private JsonObjectBuilder totals(World world) {
        JsonObjectBuilder purchases = Jsons.PROVIDER.createObjectBuilder();
        metrics.getCounters((id, metric) -> id.getName().equals("seckill.purchases") && in(id, world))
                .forEach((id, counter) -> purchases.add(tag(id, "outcome"), counter.getCount()));
        return Jsons.PROVIDER.createObjectBuilder()
                .add("purchases", purchases)
                .add("reservations", count("seckill.reservations", world))
                .add("ordersCreated", count("seckill.orders.created", world))
                .add("queuePassesExpired", count("seckill.queue.passes.expired", world))
                .add("queuePassesUsed", count("seckill.queue.passes.used", world));
    }

    private static boolean in(MetricID id, World world) {
        return world.label().equals(id.getTags().getOrDefault(World.LABEL, World.REAL.label()));
    }

    private JsonObjectBuilder activity(Activity activity, Instant now) {
        SaleWindow window = new SaleWindow(activity.startsAt(), activity.endsAt());
        List<SkuReconciliation> checks = reconciliation.latest(activity.id());
        JsonArrayBuilder skus = Jsons.PROVIDER.createArrayBuilder();
        for (SkuLine sku : activity.skus()) {
            JsonObjectBuilder line = Jsons.PROVIDER.createObjectBuilder()
                    .add("skuId", sku.skuId())
                    .add("stock", sku.total())
                    .add("soldOut", admission.isFlaggedSoldOut(activity.id(), sku.skuId()));
            byBucket(activity.id(), sku).ifPresent(buckets -> {
                JsonArrayBuilder left = Jsons.PROVIDER.createArrayBuilder();
                buckets.forEach(left::add);
                line.add("remaining", buckets.stream().mapToLong(Long::longValue).sum()).add("buckets", left);
            });
            checks.stream().filter(c -> c.skuId() == sku.skuId()).findFirst().ifPresent(c -> line.add("reconciliation",
                    Jsons.PROVIDER.createObjectBuilder().add("state", c.state()).add("checkedAt", c.checkedAt().toString())));
            skus.add(line);
        }
        JsonObjectBuilder json = ActivityJson.base(activity)
                .add("state", window.notStartedAt(now) ? "UPCOMING" : window.endedAt(now) ? "ENDED" : "OPEN")
                .add("skus", skus);
        // the waiting line, as this instance's last tick read it (absent when the queue is off or the line idle)
        queue.lines().stream().filter(l -> l.activityId() == activity.id()).findFirst().ifPresent(l -> json.add("queue",
                Jsons.PROVIDER.createObjectBuilder()
                        .add("waiting", l.waiting())
                        .add("passesOut", l.passesOut())
                        .add("called", l.called())
                        .add("calledPerSecond", Math.max(0, l.calledPerSecond()))
                        .add("closed", l.closed())
                        .add("waitEstimateSeconds", l.waitEstimateSeconds())));
        return json;
    }

    private Optional<List<Long>> byBucket(long activityId, SkuLine sku) {
        try {
            return stock.remainingByBucket(activityId, sku.skuId(), sku.buckets());
        } catch (ReservationUnavailable e) {
            return Optional.empty();  // the page shows the stock as unknown while Redis does not answer
        }
    }

    private long count(String name, World world) {
        return metrics.getCounters((id, metric) -> id.getName().equals(name) && in(id, world)).values().stream()
                .mapToLong(Counter::getCount).sum();
    }

    private long gauge(String name) {
        return metrics.getGauges((id, metric) -> id.getName().equals(name)).values().stream()
                .map(Gauge::getValue).mapToLong(v -> v == null ? 0 : v.longValue()).sum();
    }

    /** One world's series of a gauge (a series without the label is the real world's). */
    private long gauge(String name, World world) {
        return metrics.getGauges((id, metric) -> id.getName().equals(name) && in(id, world)).values().stream()
                .map(Gauge::getValue).mapToLong(v -> v == null ? 0 : v.longValue()).sum();
    }

    private static String tag(MetricID id, String name) {
        String value = id.getTags().get(name);
        return value == null ? "unknown" : value;
    }
}
