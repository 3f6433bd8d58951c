package seckill.app.http;

import java.time.Duration;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.helidon.webserver.http.ServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import seckill.admission.api.Admission;
import seckill.admission.api.AdmissionDecision;
import seckill.admission.api.PurchaseAttempt;
import seckill.admission.api.SaleWindow;
import seckill.ledger.api.catalogue.Activity;
import seckill.queue.api.FindPlace;
import seckill.queue.api.JoinLine;
import seckill.queue.api.LineUnavailable;
import seckill.queue.api.Place;
import seckill.queue.api.PlaceState;
import seckill.queue.api.QueueSwitch;
import seckill.queue.api.QueueWindow;

/**
 * The waiting room's HTTP (issue #33): {@code POST /api/v1/activities/{id}/queue} joins the line behind the
 * same admission as a purchase (halt, blocklists, the captcha-backed token once the sale started), {@code GET}
 * tells the buyer's place ({@link QueueEventsRoute} pushes it as Server-Sent Events). Every answer carries the
 * signed ticket (show it as {@code X-Queue-Ticket} to get back a place Redis lost) and, on the buyer's turn,
 * the pass a purchase shows as {@code X-Queue-Pass}.
 */
@Path("/api/v1/activities/{activityId}/queue")
@ApplicationScoped
public class QueueResource {

    static final String TICKET_HEADER = "X-Queue-Ticket";
    private static final Logger LOG = Logger.getLogger(QueueResource.class.getName());

    private final RehearsalGate rehearsals;
    private final Admission admission;
    private final QueueSwitch queue;
    private final JoinLine joining;
    private final FindPlace places;
    private final ClientAddress clientAddress;
    private final BuyerAuthentication buyers;

    @Inject
    QueueResource(RehearsalGate rehearsals, Admission admission, QueueSwitch queue, JoinLine joining, FindPlace places,
                  ClientAddress clientAddress, BuyerAuthentication buyers) {
        this.rehearsals = rehearsals;
        this.admission = admission;
        this.queue = queue;
        this.joining = joining;
        this.places = places;
        this.clientAddress = clientAddress;
        this.buyers = buyers;
    }

    /** For CDI's proxy. */
    QueueResource() {
        this(null, null, null, null, null, null, null);
    }

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public Response join(@PathParam("activityId") String activityIdText,
                         @HeaderParam(PurchaseAnswers.TOKEN_HEADER) String token,
                         @HeaderParam("X-Forwarded-For") String forwardedFor, @Context ServerRequest request) {
        long buyer = buyers.buyerOf(request);
        Activity activity = rehearsals.activity(request, activityIdText, () -> buyer);
        queueOn(queue);
        SaleWindow window = new SaleWindow(activity.startsAt(), activity.endsAt());
        AdmissionDecision decision = admission.admitToLine(new PurchaseAttempt(activity.id(), 0, buyer,
                clientAddress.of(request, forwardedFor), window, Optional.ofNullable(token)));
        if (!(decision instanceof AdmissionDecision.Admitted)) {
            throw PurchaseAnswers.refusal(decision, window);
        }
        Place place = unavailableAsProblem(() -> joining.join(activity.id(), buyer, lineWindow(activity)));
        if (place.state() == PlaceState.SOLD_OUT && place.place() == 0) {
            throw new Problem(410, "SOLD_OUT", "Sold out", "Every unit is gone; the line is closed. It opens again "
                    + "if units come back.");
        }
        return Response.ok(json(place).build().toString()).build();
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String place(@PathParam("activityId") String activityIdText, @HeaderParam(TICKET_HEADER) String ticket,
                        @Context ServerRequest request) {
        long buyer = buyers.buyerOf(request);
        Activity activity = rehearsals.activity(request, activityIdText, () -> buyer);
        queueOn(queue);
        return json(unavailableAsProblem(() -> places.find(activity.id(), buyer, lineWindow(activity),
                Optional.ofNullable(ticket)))).build().toString();
    }

    static void queueOn(QueueSwitch queue) {
        if (!queue.on()) {
            throw new Problem(409, "QUEUE_OFF", "No waiting line", "The waiting line is off: buy directly.");
        }
    }

    static QueueWindow lineWindow(Activity activity) {
        return new QueueWindow(activity.startsAt(), activity.endsAt());
    }

    private static Place unavailableAsProblem(java.util.function.Supplier<Place> call) {
        try {
            return call.get();
        } catch (LineUnavailable e) {
            LOG.log(Level.WARNING, "waiting line unavailable", e);
            throw new Problem(503, "QUEUE_UNAVAILABLE", "Temporarily unavailable", "The waiting line does not answer "
                    + "right now; ask again (joining again keeps your place).", Duration.ofSeconds(1));
        }
    }

    static JsonObjectBuilder json(Place place) {
        JsonObjectBuilder json = Jsons.PROVIDER.createObjectBuilder()
                .add("activityId", place.activityId())
                .add("state", place.state().name())
                .add("place", place.place())
                .add("position", place.position())
                .add("estimatedWaitSeconds", place.estimatedWaitSeconds())
                .add("waiting", place.waiting())
                .add("called", place.called())
                .add("events", "/api/v1/activities/" + place.activityId() + "/queue/events");
        if (place.ticket() != null) {
            json.add("ticket", place.ticket());
        }
        place.pass().ifPresent(pass -> json.add("pass", pass.token())
                .add("passExpiresAt", pass.expiresAt().toString())
                .add("passHeader", PurchaseAnswers.PASS_HEADER));
        return json;
    }
}
