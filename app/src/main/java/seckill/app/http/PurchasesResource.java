package seckill.app.http;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import io.helidon.webserver.http.ServerRequest;
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
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import seckill.app.sale.PlacingPurchase;
import seckill.app.sale.Purchase;
import seckill.reservation.api.ReservationId;

/**
 * The purchase route: parses and range-checks the request, hands it to {@link PlacingPurchase}, and
 * answers its outcome ({@link PurchaseAnswers}). Bad input is refused here, before anything else is
 * asked; every answer is counted by outcome.
 */
@Path("/api/v1/activities/{activityId}/purchases")
@ApplicationScoped
public class PurchasesResource {

    private static final Pattern REQUEST_ID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");
    static final String TOKEN_HEADER = PurchaseAnswers.TOKEN_HEADER;

    private final ClientAddress clientAddress;
    private final PlacingPurchase placing;
    private final MetricRegistry metrics;
    private final PurchasesInFlight inFlight;
    private final Map<String, Counter> outcomes = new ConcurrentHashMap<>();

    @Inject
    PurchasesResource(ClientAddress clientAddress, PlacingPurchase placing, MetricRegistry metrics,
                      PurchasesInFlight inFlight) {
        this.clientAddress = clientAddress;
        this.placing = placing;
        this.metrics = metrics;
        this.inFlight = inFlight;
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
        if (!inFlight.enter()) {
            count("busy");
            throw new Problem(503, "BUSY", "Busy", "This instance is serving as many purchases as it may at once; "
                    + "nothing was reserved. Retry shortly.", java.time.Duration.ofSeconds(1));
        }
        try {
            Purchase purchase = parse(activityIdText, userHeader, token, clientAddress.of(request, forwardedFor), body);
            Response response = PurchaseAnswers.of(placing.place(purchase));
            count(response.getStatus() == 202 ? "reserved" : "duplicate");
            return response;
        } catch (Problem problem) {
            count(problem.code().toLowerCase());
            if (problem.status() == 410) {
                // a buyer whose first answer was lost learns where to find what they hold, at no Redis cost
                String mine = BuyerReservationsResource.pathOf(Buyer.pathId(activityIdText, "activity"));
                problem.with("reservations", mine).header("Link", "<" + mine + ">; rel=\"reservations\"");
            }
            throw problem;
        } finally {
            inFlight.leave();
        }
    }

    private static Purchase parse(String activityIdText, String userHeader, String token, String clientIp,
                                  String body) {
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
        return new Purchase(activityId, skuId, quantity, userId, clientIp, requestId, Optional.ofNullable(token));
    }

    private void count(String outcome) {
        outcomes.computeIfAbsent(outcome, o -> metrics.counter("seckill.purchases", new Tag("outcome", o))).inc();
    }
}
