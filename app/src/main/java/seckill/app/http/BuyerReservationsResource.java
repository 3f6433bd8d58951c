package seckill.app.http;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import io.helidon.webserver.http.ServerRequest;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import seckill.reservation.api.ReservationUnavailable;
import seckill.settlement.api.HeldReservation;
import seckill.settlement.api.ReservationTracking;

/**
 * "My reservations" in an activity: a buyer whose answer to the first click was lost, or who is sent
 * here by a {@code 410 SOLD_OUT}, finds what they hold. Read from the primary stores (the ledger and
 * Redis), so a reservation made a moment ago is already here. Only the caller's own are listed.
 */
@Path("/api/v1/activities/{activityId}/reservations")
@ApplicationScoped
public class BuyerReservationsResource {

    private final ReservationTracking tracking;
    private final BuyerAuthentication buyers;
    private final RehearsalGate rehearsals;

    @Inject
    BuyerReservationsResource(ReservationTracking tracking, BuyerAuthentication buyers, RehearsalGate rehearsals) {
        this.tracking = tracking;
        this.buyers = buyers;
        this.rehearsals = rehearsals;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String mine(@PathParam("activityId") String activityIdText, @Context ServerRequest request) {
        long userId = buyers.buyerOf(request);
        long activityId = Buyer.pathId(activityIdText, "activity");
        JsonArrayBuilder list = Jsons.PROVIDER.createArrayBuilder();
        switch (rehearsals.judge(request, activityId, () -> userId)) {
            case MARK_ON_REAL -> throw RehearsalGate.markOnReal(activityId);
            // what an activity that does not exist lists: nothing (and nothing is read)
            case HIDDEN -> {
                return Jsons.PROVIDER.createObjectBuilder().add("reservations", list).build().toString();
            }
            case REAL, REHEARSAL -> {
            }
        }
        try {
            for (HeldReservation held : tracking.heldBy(activityId, userId)) {
                JsonObjectBuilder json = ReservationsResource.json(held.status()).add("skuId", held.skuId());
                held.quantity().ifPresent(q -> json.add("quantity", q));
                list.add(json);
            }
        } catch (ReservationUnavailable e) {
            throw new Problem(503, "REDIS_UNAVAILABLE", "Temporarily unavailable",
                    "The reservation store cannot answer right now.", Duration.ofSeconds(2));
        }
        return Jsons.PROVIDER.createObjectBuilder().add("reservations", list).build().toString();
    }

    /** Where a buyer finds their reservations in an activity. */
    static String pathOf(long activityId) {
        return "/api/v1/activities/" + activityId + "/reservations";
    }
}
