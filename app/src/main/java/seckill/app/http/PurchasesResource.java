package seckill.app.http;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import io.helidon.webserver.http.ServerRequest;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import seckill.admission.api.Admission;
import seckill.admission.api.AdmissionDecision;
import seckill.admission.api.PurchaseAttempt;
import seckill.ordering.api.Activity;
import seckill.ordering.api.ActivityCatalog;
import seckill.ordering.api.SkuLine;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.ReservationOutcome;
import seckill.reservation.api.ReservationUnavailable;
import seckill.reservation.api.ReserveStock;
import seckill.reservation.api.StockReservations;

/**
 * The purchase path. Bad input and doomed attempts are answered before Redis is touched; an
 * admitted attempt is judged by one atomic script (its own call, or its place in a coalesced call
 * shared with concurrent buyers of the same bucket). The answer says only what is known: a Redis
 * failure is a 503 with Retry-After, never a guess.
 */
@Path("/api/v1/activities/{activityId}/purchases")
@ApplicationScoped
public class PurchasesResource {

    private static final Logger LOG = Logger.getLogger(PurchasesResource.class.getName());
    private static final Pattern REQUEST_ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");
    static final String TOKEN_HEADER = "X-Purchase-Token";

    @Inject
    ClientAddress clientAddress;

    @Inject
    ActivityCatalog catalog;

    @Inject
    Admission admission;

    @Inject
    StockReservations reservations;

    @Inject
    MetricRegistry metrics;

    private final Map<String, Counter> outcomes = new ConcurrentHashMap<>();
    private Counter reservationsMade;

    @PostConstruct
    void init() {
        reservationsMade = metrics.counter("seckill.reservations");
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response purchase(@PathParam("activityId") String activityIdText,
                             @HeaderParam(Buyer.HEADER) String userHeader,
                             @HeaderParam(TOKEN_HEADER) String token,
                             @HeaderParam("X-Forwarded-For") String forwardedFor,
                             @Context ServerRequest request,
                             String body) {
        try {
            Response response = decide(activityIdText, userHeader, token, clientAddress.of(request, forwardedFor),
                    body);
            count(response.getStatus() == 202 ? "reserved" : "duplicate");
            return response;
        } catch (Problem problem) {
            count(problem.code().toLowerCase());
            throw problem;
        }
    }

    private Response decide(String activityIdText, String userHeader, String token, String clientIp, String body) {
        long userId = Buyer.from(userHeader);
        long activityId = Buyer.pathId(activityIdText, "activity");
        JsonBody json = JsonBody.parse(body);
        long skuId = json.integer("skuId", true, 1, ReservationId.MAX_PART).orElse(0L);
        long quantity = json.integer("quantity", false, 1, Integer.MAX_VALUE).orElse(1L);
        String requestId = json.text("requestId", true, 64).orElse(null);
        if (requestId != null && !REQUEST_ID.matcher(requestId).matches()) {
            json.fail("requestId", "may only hold letters, digits and . _ : -");
        }
        json.check();

        Activity activity = catalog.find(activityId)
                .orElseThrow(() -> new Problem(404, "ACTIVITY_NOT_FOUND", "Not found", "No activity " + activityId + "."));
        SkuLine sku = activity.sku(skuId)
                .orElseThrow(() -> new Problem(404, "SKU_NOT_FOUND", "Not found",
                        "Activity " + activityId + " does not sell SKU " + skuId + "."));
        if (quantity > sku.perUserLimit()) {
            throw new Problem(400, "INVALID_QUANTITY", "Invalid quantity",
                    "quantity must be between 1 and " + sku.perUserLimit() + " for this SKU.")
                    .with("perUserLimit", sku.perUserLimit());
        }

        AdmissionDecision decision = admission.admit(new PurchaseAttempt(activityId, skuId, userId, clientIp,
                activity.startsAt(), activity.endsAt(), java.util.Optional.ofNullable(token)));
        switch (decision) {
            case AdmissionDecision.NotStarted notStarted -> throw new Problem(409, "NOT_STARTED", "Not started",
                    "The sale starts at " + activity.startsAt() + ".", Duration.ofSeconds(notStarted.secondsUntilStart()))
                    .with("startsAt", activity.startsAt().toString());
            case AdmissionDecision.Ended ended -> throw new Problem(409, "ENDED", "Ended",
                    "The sale ended at " + activity.endsAt() + ".");
            case AdmissionDecision.SoldOut soldOut -> throw soldOut(skuId);
            case AdmissionDecision.Halted halted -> throw new Problem(503, "HALTED", "Sales halted",
                    "Sales are paused (" + halted.reason() + "); nothing was reserved. Retry later.",
                    Duration.ofSeconds(halted.retryAfterSeconds()));
            case AdmissionDecision.Throttled throttled -> throw new Problem(429, "THROTTLED", "Too many attempts",
                    "BUYER".equals(throttled.limit())
                            ? "You are clicking faster than " + throttled.buyerLimit() + " attempt(s) per window; retry in "
                            + throttled.retryAfterSeconds() + " s. Your place is not lost: nothing was sold to anyone for this."
                            : "You are in the queue: the sale admits a limited number of attempts per second; retry in "
                            + throttled.retryAfterSeconds() + " s.",
                    Duration.ofSeconds(throttled.retryAfterSeconds()))
                    .with("limit", throttled.limit())
                    .header("X-RateLimit-Limit", Long.toString(throttled.buyerLimit()))
                    .header("X-RateLimit-Remaining", Long.toString(throttled.buyerRemaining()))
                    .header("X-RateLimit-Reset", Long.toString(throttled.resetSeconds()));
            case AdmissionDecision.TokenInvalid invalid -> throw new Problem(403, "TOKEN_INVALID", "Purchase token invalid",
                    "Send a valid purchase token in " + TOKEN_HEADER + " (solve a challenge at .../challenges, then "
                            + "POST .../tokens). Refused because: " + invalid.reason() + ".")
                    .with("reason", invalid.reason());
            case AdmissionDecision.Blocked blocked -> throw new Problem(403, "BLOCKED", "Blocked",
                    "This " + blocked.what() + " may not take part in the sale.");
            case AdmissionDecision.Admitted admitted -> {
                // go on to reservation
            }
        }

        ReservationOutcome outcome;
        try {
            outcome = reservations.reserve(new ReserveStock(activityId, skuId, sku.buckets(), userId, (int) quantity,
                    requestId));
        } catch (ReservationUnavailable e) {
            if (!e.inDoubt()) {
                // the call never left this instance: nothing happened, a retry is safe
                throw new Problem(503, "BUSY", "Busy", "This instance is at capacity; nothing was reserved. Retry shortly.",
                        Duration.ofSeconds(1));
            }
            LOG.log(Level.WARNING, "reservation store unavailable; halting sales on this instance", e);
            // the arbiter is in doubt: stop issuing until what is unsettled is counted (settlement resumes)
            // a stable reason for clients and probes; the client's error text is in the log line above
            admission.halt("redis: reservation store did not answer");
            throw new Problem(503, "HALTED", "Sales halted",
                    "Sales are paused while the reservation store does not answer. If this attempt reached it before it"
                            + " stopped answering, your reservation exists: retrying returns it, never a second one.",
                    Duration.ofSeconds(2));
        }
        return switch (outcome) {
            case ReservationOutcome.Reserved reserved -> {
                reservationsMade.inc();
                if (reserved.skuRemaining().isPresent()
                        && reserved.skuRemaining().getAsLong() <= admission.soldOutThreshold()) {
                    admission.soldOut(activityId, skuId);
                }
                yield accepted(202, reserved.id().toString(), "QUEUED");
            }
            case ReservationOutcome.AlreadyReserved already -> accepted(200, already.id().toString(), "ALREADY_RESERVED");
            case ReservationOutcome.SoldOut soldOut -> {
                admission.soldOut(activityId, skuId);
                throw soldOut(skuId);
            }
            case ReservationOutcome.InsufficientStock insufficient -> throw new Problem(409, "INSUFFICIENT_STOCK",
                    "Insufficient stock", "Only " + insufficient.remaining() + " unit(s) left; ask for fewer.")
                    .with("remaining", insufficient.remaining());
            case ReservationOutcome.NotPreheated notPreheated -> throw new Problem(503, "NOT_READY", "Not ready",
                    "This SKU's stock is not loaded yet.", Duration.ofSeconds(5));
            case ReservationOutcome.Unreadable unreadable -> {
                LOG.severe(() -> "buyer " + userId + " of activity " + activityId + " sku " + skuId
                        + " has a record in Redis this instance cannot read: " + unreadable.reply());
                throw new Problem(500, "INTERNAL", "Internal error", "Something went wrong on our side.");
            }
            case ReservationOutcome.InProgress inProgress -> throw new Problem(409, "PURCHASE_IN_PROGRESS",
                    "Purchase in progress", "Another click of yours is being served right now; ask again to get its "
                    + "reservation.", Duration.ofSeconds(1));
        };
    }

    private static Problem soldOut(long skuId) {
        return new Problem(410, "SOLD_OUT", "Sold out", "SKU " + skuId + " is sold out.");
    }

    private static Response accepted(int status, String reservationId, String state) {
        return Response.status(status)
                .location(URI.create("/api/v1/reservations/" + reservationId))
                .entity(Jsons.PROVIDER.createObjectBuilder().add("reservationId", reservationId).add("status", state).build()
                        .toString())
                .build();
    }

    private void count(String outcome) {
        outcomes.computeIfAbsent(outcome, o -> metrics.counter("seckill.purchases", new Tag("outcome", o))).inc();
    }
}
