package seckill.app.http;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import seckill.admission.api.Admission;
import seckill.admission.api.SaleWindow;
import seckill.ledger.api.catalogue.Activity;
import io.helidon.webserver.http.ServerRequest;
import jakarta.ws.rs.core.Context;
import seckill.ledger.api.catalogue.SkuLine;
import seckill.reservation.api.ReservationUnavailable;
import seckill.reservation.api.RemainingStock;

/**
 * The public view of an activity: its window, its state and a per-SKU hint of the stock left. The
 * hint comes from Redis and is only a hint; when Redis cannot answer it is left out.
 */
@Path("/api/v1/activities/{activityId}")
@ApplicationScoped
public class ActivitiesResource {

    private final RehearsalGate rehearsals;
    private final BuyerAuthentication buyers;
    private final RemainingStock remainingStock;
    private final Admission admission;
    private final Clock clock;

    @Inject
    ActivitiesResource(RehearsalGate rehearsals,
                       BuyerAuthentication buyers,
                       RemainingStock remainingStock,
                       Admission admission,
                       Clock clock) {
        this.rehearsals = rehearsals;
        this.buyers = buyers;
        this.remainingStock = remainingStock;
        this.admission = admission;
        this.clock = clock;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String view(@PathParam("activityId") String activityIdText, @Context ServerRequest request) {
        // public, so the buyer a rehearsal's mark is signed for is read only when a mark asks for one
        Activity activity = rehearsals.activity(request, activityIdText, () -> buyers.buyerIfAny(request));
        Instant now = clock.instant();
        JsonArrayBuilder skus = Jsons.PROVIDER.createArrayBuilder();
        boolean allSoldOut = true;
        for (SkuLine sku : activity.skus()) {
            JsonObjectBuilder line = ActivityJson.showing(sku, Jsons.PROVIDER.createObjectBuilder()
                    .add("skuId", sku.skuId())
                    .add("stock", sku.total())
                    .add("perUserLimit", sku.perUserLimit()));
            Optional<Long> remaining = remaining(activity, sku);
            boolean soldOut = admission.isFlaggedSoldOut(activity.id(), sku.skuId())
                    || remaining.map(r -> r == 0).orElse(false);
            remaining.ifPresent(r -> line.add("remaining", r));
            line.add("soldOut", soldOut);
            allSoldOut &= soldOut;
            skus.add(line);
        }
        SaleWindow window = new SaleWindow(activity.startsAt(), activity.endsAt());
        String state = window.notStartedAt(now) ? "UPCOMING"
                : window.endedAt(now) ? "ENDED"
                : allSoldOut ? "SOLD_OUT" : "OPEN";
        return ActivityJson.base(activity).add("state", state).add("serverTime", now.toString()).add("skus", skus).build().toString();
    }

    private Optional<Long> remaining(Activity activity, SkuLine sku) {
        try {
            return remainingStock.remaining(activity.id(), sku.skuId(), sku.buckets());
        } catch (ReservationUnavailable e) {
            return Optional.empty();
        }
    }
}
