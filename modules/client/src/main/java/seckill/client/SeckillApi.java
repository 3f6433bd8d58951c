package seckill.client;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * The buyer's side of the seckill HTTP API as a MicroProfile REST Client. Every method throws a
 * {@link SeckillProblem} (typed by code) for an answer of 400 or above. Build one with
 * {@link SeckillClients#buyer(java.net.URI, String)} (the buyer's bearer token on every call), or
 * inject it with {@code @RestClient} and {@code seckill/mp-rest/url}; for the purchase protocol with
 * retries use {@link Buying}. The {@code userId} arguments are written as {@code X-User-Id}, which a
 * client built with a token replaces by the token: the service believes only the token.
 */
@RegisterRestClient(configKey = "seckill")
@RegisterProvider(ProblemExceptions.class)
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
public interface SeckillApi {

    String USER = "X-User-Id";
    String TOKEN = "X-Purchase-Token";
    String PASS = "X-Queue-Pass";
    String TICKET = "X-Queue-Ticket";

    @GET
    @Path("activities/{activityId}")
    ActivityView activity(@PathParam("activityId") long activityId);

    /**
     * The activity as one buyer sees it (the buyer's bearer token sent): what a rehearsal's activity needs, whose
     * view the service shows only to a buyer the edge marked ({@link SeckillClients#rehearsalBuyers}).
     */
    @GET
    @Path("activities/{activityId}")
    ActivityView activity(@PathParam("activityId") long activityId, @HeaderParam(USER) long userId);

    @POST
    @Path("activities/{activityId}/challenges")
    Challenge challenge(@PathParam("activityId") long activityId, @HeaderParam(USER) long userId);

    @POST
    @Path("activities/{activityId}/tokens")
    @Consumes(MediaType.APPLICATION_JSON)
    PurchaseToken token(@PathParam("activityId") long activityId, @HeaderParam(USER) long userId, TokenRequest answer);

    /** One attempt; a {@code token} may be null when the service requires none. */
    @POST
    @Path("activities/{activityId}/purchases")
    @Consumes(MediaType.APPLICATION_JSON)
    Reservation purchase(@PathParam("activityId") long activityId, @HeaderParam(USER) long userId,
                         @HeaderParam(TOKEN) String token, PurchaseRequest request);

    /** One attempt with the waiting line's pass (required while the service's queue is on). */
    @POST
    @Path("activities/{activityId}/purchases")
    @Consumes(MediaType.APPLICATION_JSON)
    Reservation purchase(@PathParam("activityId") long activityId, @HeaderParam(USER) long userId,
                         @HeaderParam(TOKEN) String token, @HeaderParam(PASS) String pass, PurchaseRequest request);

    /** Joins the activity's waiting line, or answers the place the buyer has ({@code token} may be null). */
    @POST
    @Path("activities/{activityId}/queue")
    QueuePlace joinQueue(@PathParam("activityId") long activityId, @HeaderParam(USER) long userId,
                         @HeaderParam(TOKEN) String token);

    /** Where the buyer stands in the waiting line ({@code ticket} may be null). */
    @GET
    @Path("activities/{activityId}/queue")
    QueuePlace queuePlace(@PathParam("activityId") long activityId, @HeaderParam(USER) long userId,
                          @HeaderParam(TICKET) String ticket);

    @GET
    @Path("reservations/{reservationId}")
    ReservationView reservation(@PathParam("reservationId") String reservationId, @HeaderParam(USER) long userId);

    /** The caller's own reservations in an activity (empty when none). */
    @GET
    @Path("activities/{activityId}/reservations")
    BuyerReservations reservations(@PathParam("activityId") long activityId, @HeaderParam(USER) long userId);

    /**
     * A payment provider's callback: {@code signature} is the {@code X-Signature} value over exactly
     * {@code body} and the time it is sent ({@link PaymentSigner}).
     */
    @POST
    @Path("payments/callback")
    @Consumes(MediaType.APPLICATION_JSON)
    PaymentReceipt paymentCallback(@HeaderParam("X-Signature") String signature, String body);
}
