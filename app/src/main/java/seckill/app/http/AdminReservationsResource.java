package seckill.app.http;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import seckill.app.sale.ReservationTrace;
import seckill.app.sale.TracingReservations;
import seckill.ledger.api.LedgerTrace;
import seckill.reservation.api.RedisTrace;
import seckill.reservation.api.ReservationUnavailable;
import seckill.settlement.api.SkuReconciliation;

/**
 * Support's lookup for "I won but I have no order": one reservation (or every reservation of a buyer
 * in an activity) followed through Redis, the stream, the ledger and reconciliation, with a verdict.
 * Reads only. Needs the admin token.
 */
@AdminOnly
@Path("/api/v1/admin/reservations")
@ApplicationScoped
public class AdminReservationsResource {

    private final TracingReservations tracing;

    @Inject
    AdminReservationsResource(TracingReservations tracing) {
        this.tracing = tracing;
    }

    @GET
    @Path("{reservationId}")
    @Produces(MediaType.APPLICATION_JSON)
    public String one(@PathParam("reservationId") String reservationId) {
        ReservationTrace trace = traced(() -> tracing.trace(reservationId)).orElseThrow(() -> new Problem(404,
                "RESERVATION_NOT_FOUND", "Not found", "No layer knows a reservation " + reservationId
                + " (neither Redis nor the ledger)."));
        return json(trace).build().toString();
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String ofBuyer(@QueryParam("activityId") String activityIdText, @QueryParam("buyerId") String buyerIdText) {
        if (activityIdText == null || buyerIdText == null) {
            throw new Problem(400, "INVALID_REQUEST", "Invalid request", "Give activityId and buyerId, or look up "
                    + "/api/v1/admin/reservations/{reservationId}.");
        }
        long activityId = Buyer.pathId(activityIdText, "activity");
        long buyerId = Buyer.positive(buyerIdText).orElseThrow(() -> new Problem(400, "INVALID_REQUEST",
                "Invalid request", "buyerId must be a positive number."));
        List<ReservationTrace> traces = traced(() -> tracing.traceBuyer(activityId, buyerId)).orElseThrow(() ->
                new Problem(404, "ACTIVITY_NOT_FOUND", "Not found", "No activity " + activityIdText + "."));
        JsonArrayBuilder all = Jsons.PROVIDER.createArrayBuilder();
        traces.forEach(t -> all.add(json(t)));
        return Jsons.PROVIDER.createObjectBuilder().add("activityId", activityId).add("buyerId", buyerId)
                .add("reservations", all).build().toString();
    }

    private static <T> T traced(java.util.function.Supplier<T> lookup) {
        try {
            return lookup.get();
        } catch (ReservationUnavailable e) {
            throw new Problem(503, "REDIS_UNAVAILABLE", "Redis unavailable", "The trace reads Redis; ask again.",
                    Duration.ofSeconds(5));
        }
    }

    static JsonObjectBuilder json(ReservationTrace t) {
        JsonObjectBuilder json = Jsons.PROVIDER.createObjectBuilder()
                .add("reservationId", t.reservationId())
                .add("activityId", t.activityId())
                .add("skuId", t.skuId())
                .add("bucket", t.bucket())
                .add("buckets", t.buckets())
                .add("mintedAt", t.mintedAt().toString());
        t.buyer().ifPresent(b -> json.add("buyerId", b));
        json.add("verdict", Jsons.PROVIDER.createObjectBuilder().add("code", t.verdict().code().name())
                .add("words", t.verdict().words()));
        json.add("redis", redis(t.redis()));
        json.add("ledger", ledger(t.ledger()));
        t.reconciliation().ifPresent(r -> json.add("reconciliation", reconciliation(r)));
        return json;
    }

    private static JsonObjectBuilder redis(RedisTrace r) {
        JsonObjectBuilder json = Jsons.PROVIDER.createObjectBuilder();
        add(json, "mintedTo", r.mintedTo());
        r.buyerRecord().ifPresent(b -> {
            JsonObjectBuilder record = Jsons.PROVIDER.createObjectBuilder().add("key", b.key())
                    .add("homeBucket", b.homeBucket()).add("holdsThis", b.holdsThis());
            b.value().ifPresent(v -> record.add("value", v));
            json.add("buyerRecord", record);
        });
        RedisTrace.StreamEntry e = r.entry();
        JsonObjectBuilder entry = Jsons.PROVIDER.createObjectBuilder().add("stream", e.stream())
                .add("state", e.state().name());
        e.id().ifPresent(id -> entry.add("id", id));
        e.consumer().ifPresent(c -> entry.add("consumer", c));
        if (e.state() == RedisTrace.EntryState.PENDING) {
            entry.add("deliveries", e.deliveries()).add("idleMillis", e.idleMillis());
        }
        e.lastDeliveredId().ifPresent(id -> entry.add("groupLastDeliveredId", id));
        if (!e.fields().isEmpty()) {
            JsonObjectBuilder fields = Jsons.PROVIDER.createObjectBuilder();
            e.fields().forEach(fields::add);
            entry.add("fields", fields);
        }
        return json.add("streamEntry", entry).add("refilled", r.refilled()).add("preheated", r.preheated());
    }

    private static JsonObjectBuilder ledger(LedgerTrace l) {
        JsonObjectBuilder json = Jsons.PROVIDER.createObjectBuilder();
        l.order().ifPresent(o -> {
            JsonObjectBuilder order = Jsons.PROVIDER.createObjectBuilder()
                    .add("orderNo", o.view().orderNo())
                    .add("status", o.view().status().name())
                    .add("buyerId", o.view().userId())
                    .add("quantity", o.view().quantity())
                    .add("createdAt", o.view().createdAt().toString())
                    .add("expiresAt", o.view().expiresAt().toString())
                    .add("updatedAt", o.updatedAt().toString());
            o.view().price().ifPresent(p -> order.add("price", ActivityJson.price(p)));
            o.paymentId().ifPresent(p -> order.add("paymentId", p));
            o.paidAt().ifPresent(p -> order.add("paidAt", p.toString()));
            add(order, "eventPosition", o.eventPosition());
            json.add("order", order);
        });
        l.failure().ifPresent(f -> {
            JsonObjectBuilder failure = Jsons.PROVIDER.createObjectBuilder().add("reason", f.reason())
                    .add("buyerId", f.userId()).add("quantity", f.quantity()).add("failedAt", f.failedAt().toString());
            add(failure, "eventPosition", f.eventPosition());
            json.add("failure", failure);
        });
        l.refusals().ifPresent(r -> json.add("refusals", Jsons.PROVIDER.createObjectBuilder()
                .add("attempts", r.attempts()).add("lastReason", r.lastReason()).add("updatedAt", r.updatedAt().toString())));
        l.refill().ifPresent(r -> {
            JsonObjectBuilder refill = Jsons.PROVIDER.createObjectBuilder().add("bucket", r.bucket())
                    .add("quantity", r.quantity()).add("releaseBuyer", r.releaseBuyer()).add("applied", r.applied())
                    .add("attempts", r.attempts()).add("createdAt", r.createdAt().toString());
            r.appliedAt().map(Instant::toString).ifPresent(a -> refill.add("appliedAt", a));
            json.add("refill", refill);
        });
        return json;
    }

    private static JsonObjectBuilder reconciliation(SkuReconciliation r) {
        JsonObjectBuilder figures = Jsons.PROVIDER.createObjectBuilder();
        r.figures().forEach(figures::add);
        JsonObjectBuilder json = Jsons.PROVIDER.createObjectBuilder().add("checkedAt", r.checkedAt().toString())
                .add("state", r.state()).add("figures", figures);
        Optional.ofNullable(r.detail()).ifPresent(d -> json.add("detail", d));
        return json;
    }

    private static void add(JsonObjectBuilder json, String name, OptionalLong value) {
        value.ifPresent(v -> json.add(name, v));
    }
}
