package seckill.app.http;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import io.helidon.webserver.http.ServerRequest;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.ReservationUnavailable;
import seckill.settlement.api.ReservationStatus;
import seckill.settlement.api.ReservationTracking;

import java.time.Duration;
import java.util.Optional;

/** A buyer polls here for their reservation; another buyer gets 404, exactly like a bad id. */
@Path("/api/v1/reservations/{reservationId}")
@ApplicationScoped
public class ReservationsResource {

    private final ReservationTracking tracking;
    private final BuyerAuthentication buyers;
    private final RehearsalGate rehearsals;

    @Inject
    ReservationsResource(ReservationTracking tracking, BuyerAuthentication buyers, RehearsalGate rehearsals) {
        this.tracking = tracking;
        this.buyers = buyers;
        this.rehearsals = rehearsals;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String status(@PathParam("reservationId") String reservationId,
                         @Context ServerRequest request) {
        long userId = buyers.buyerOf(request);
        Problem notFound = new Problem(404, "RESERVATION_NOT_FOUND", "Not found",
                "No reservation " + reservationId + " for this buyer.");
        // the reservation id names its activity: the edge's rehearsal mark is asked of that one (an id that does
        // not parse names none, and is not found whatever the mark)
        Optional<ReservationId> parsed = ReservationId.parse(reservationId);
        if (parsed.isPresent()) {
            long activityId = parsed.get().activityId();
            switch (rehearsals.judge(request, activityId, () -> userId)) {
                case MARK_ON_REAL -> throw RehearsalGate.markOnReal(activityId);
                case HIDDEN -> throw notFound;
                case REAL, REHEARSAL -> {
                }
            }
        }
        ReservationStatus status;
        try {
            status = tracking.track(reservationId, userId).orElseThrow(() -> notFound);
        } catch (ReservationUnavailable e) {
            throw new Problem(503, "REDIS_UNAVAILABLE", "Temporarily unavailable",
                    "The reservation store cannot answer right now.", Duration.ofSeconds(2));
        }
        return json(status).build().toString();
    }

    /** A reservation's status as JSON: id, status, and the order's number, deadline and status or the failure's reason. */
    static JsonObjectBuilder json(ReservationStatus status) {
        JsonObjectBuilder json = Jsons.PROVIDER.createObjectBuilder()
                .add("reservationId", status.reservationId())
                .add("status", status.state().name());
        status.orderNo().ifPresent(n -> json.add("orderNo", n));
        status.expiresAt().ifPresent(e -> json.add("expiresAt", e.toString()));
        status.orderStatus().ifPresent(s -> json.add("orderStatus", s));
        status.reason().ifPresent(r -> json.add("reason", r));
        // the price the order was sold at, and what paying it takes (issue #33)
        status.price().ifPresent(p -> {
            json.add("price", ActivityJson.price(p));
            status.quantity().ifPresent(q -> json.add("amountDue", ActivityJson.money(p.totalFor(q), p.currency())));
        });
        return json;
    }
}
