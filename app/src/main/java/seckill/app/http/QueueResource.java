package seckill.app.http;

import java.util.Optional;

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
import seckill.ledger.api.catalogue.Activity;
import seckill.queue.api.FindPlace;
import seckill.queue.api.Place;
import seckill.queue.api.QueueSwitch;
import seckill.queue.api.QueueWindow;

/**
 * The waiting room's HTTP (issue #33): {@code POST /api/v1/activities/{id}/queue} joins the line behind the
 * same admission as a purchase (halt, blocklists, the captcha-backed token once the sale started), {@code GET}
 * tells the buyer's place ({@link QueueEventsRoute} pushes it as Server-Sent Events, and joins and pushes in one
 * request on {@code POST …/queue/events}). Every answer carries the
 * signed ticket (show it as {@code X-Queue-Ticket} to get back a place Redis lost) and, on the buyer's turn,
 * the pass a purchase shows as {@code X-Queue-Pass}.
 */
@Path("/api/v1/activities/{activityId}/queue")
@ApplicationScoped
public class QueueResource {

    static final String TICKET_HEADER = "X-Queue-Ticket";

    private final RehearsalGate rehearsals;
    private final QueueSwitch queue;
    private final LineDoor joining;
    private final FindPlace places;
    private final BuyerAuthentication buyers;

    @Inject
    QueueResource(RehearsalGate rehearsals, QueueSwitch queue, LineDoor joining, FindPlace places,
                  BuyerAuthentication buyers) {
        this.rehearsals = rehearsals;
        this.queue = queue;
        this.joining = joining;
        this.places = places;
        this.buyers = buyers;
    }

    /** For CDI's proxy. */
    QueueResource() {
        this(null, null, null, null, null);
    }

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public Response join(@PathParam("activityId") String activityIdText, @Context ServerRequest request) {
        long buyer = buyers.buyerOf(request);
        Activity activity = rehearsals.activity(request, activityIdText, () -> buyer);
        queueOn(queue);
        return Response.ok(json(joining.join(request, activity, buyer)).build().toString()).build();
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String place(@PathParam("activityId") String activityIdText, @HeaderParam(TICKET_HEADER) String ticket,
                        @Context ServerRequest request) {
        long buyer = buyers.buyerOf(request);
        Activity activity = rehearsals.activity(request, activityIdText, () -> buyer);
        queueOn(queue);
        return json(LineDoor.unavailableAsProblem(() -> places.find(activity.id(), buyer, lineWindow(activity),
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
