package seckill.app.http;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.microprofile.server.RoutingPath;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import seckill.ledger.api.catalogue.Activity;
import seckill.queue.api.FollowPlaces;
import seckill.queue.api.LineUnavailable;
import seckill.queue.api.Place;
import seckill.queue.api.PlaceFollower;
import seckill.queue.api.PlaceState;
import seckill.queue.api.QueueSwitch;
import seckill.queue.api.QueueWindow;
import seckill.settlement.api.HeldReservation;
import seckill.settlement.api.ReservationStatus;
import seckill.settlement.api.ReservationTracking;

/**
 * {@code GET /api/v1/activities/{id}/queue/events}: the buyer's place pushed as Server-Sent Events; {@code POST} on
 * the same path joins the line first (as {@code POST …/queue}) and sends the place joined as the first event
 * ({@code text/event-stream}, issue #33), event {@code place} with the data {@code GET …/queue} answers, each
 * written and flushed as the place changes (read every {@code seckill.queue.events-poll-millis} by the line's one
 * reader on this instance, {@link FollowPlaces}, which reads every followed buyer in one Redis call and hands each
 * stream its buyer's change: a stream makes no Redis call of its own while it waits). Every event
 * has an id naming the state ({@link Place#eventId()}): a client reconnecting with {@code Last-Event-ID} is sent
 * nothing until something changed. Once the pass was used (the buyer reserved), the same stream follows the
 * purchase to its end: event {@code reservation} with the data {@code GET …/activities/{id}/reservations}
 * answers (each reservation {@code QUEUED}, then {@code ORDERED} with its order number, or {@code FAILED} with
 * the reason), id {@code r.<states>}, until none is {@code QUEUED} any more. The stream ends then, once the
 * pass expired, when the sale ended, when the queue is switched off (a reconnect is told {@code QUEUE_OFF}), or after {@code seckill.queue.events-max-seconds} (the client reconnects); a comment line every 15 s keeps
 * proxies from closing it and finds clients that left. A web server route, like the purchase route: each event
 * is written and flushed straight to the connection from the request's virtual thread, with no Jersey in between.
 */
@ApplicationScoped
@RoutingPath("/api/v1/activities")
public class QueueEventsRoute implements HttpService {

    private static final long KEEP_ALIVE_MILLIS = 15_000;

    private final RehearsalGate rehearsals;
    private final LineDoor joining;
    private final QueueSwitch queue;
    private final FollowPlaces follow;
    private final ReservationTracking reservations;
    private final BuyerAuthentication buyers;
    private final Clock clock;
    private final long pollMillis;
    private final long streamSeconds;
    private final int streamsPerBuyer;
    /** Streams open now on this instance, per buyer: a page needs one; a client opening many multiplies its load. */
    private final java.util.concurrent.ConcurrentHashMap<Long, Integer> openStreams = new java.util.concurrent.ConcurrentHashMap<>();

    @Inject
    QueueEventsRoute(RehearsalGate rehearsals, LineDoor joining, QueueSwitch queue, FollowPlaces follow, ReservationTracking reservations,
                     BuyerAuthentication buyers, Clock clock,
                     @ConfigProperty(name = "seckill.queue.events-poll-millis", defaultValue = "500") long pollMillis,
                     @ConfigProperty(name = "seckill.queue.events-max-seconds", defaultValue = "900") long streamSeconds,
                     @ConfigProperty(name = "seckill.queue.max-streams-per-buyer", defaultValue = "4") int streamsPerBuyer) {
        this.rehearsals = rehearsals;
        this.joining = joining;
        this.queue = queue;
        this.follow = follow;
        this.reservations = reservations;
        this.buyers = buyers;
        this.clock = clock;
        this.pollMillis = Math.max(50, pollMillis);
        this.streamSeconds = Math.max(1, streamSeconds);
        this.streamsPerBuyer = Math.max(1, streamsPerBuyer);
    }

    /** For CDI's proxy. */
    QueueEventsRoute() {
        this(null, null, null, null, null, null, null, 500, 900, 4);
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/{activityId}/queue/events", (request, response) -> events(request, response, false));
        rules.post("/{activityId}/queue/events", (request, response) -> events(request, response, true));
    }

    private static String placeEvent(Place place) {
        return "id: " + place.eventId() + "\nevent: place\nretry: 1000\ndata: " + QueueResource.json(place).build()
                + "\n\n";
    }

    /**
     * {@code joining}: the POST, which joins the line as {@code POST …/queue} does (the same admission, the same
     * place when joined already) and sends that place as the stream's first event, ticket included; a buyer
     * follows the line in one request where joining and following took two (issue #33's requests per winner).
     */
    private void events(ServerRequest request, ServerResponse response, boolean joining) {
        long buyer;
        Activity activity;
        try {
            long verified = buyers.buyerOf(request);
            buyer = verified;
            activity = rehearsals.activity(request, request.path().pathParameters().get("activityId"), () -> verified);
            QueueResource.queueOn(queue);
        } catch (Problem problem) {
            PurchaseRoute.send(response, request, problem);
            return;
        } catch (RuntimeException failure) {
            PurchaseRoute.send(response, request, ProblemMapper.of(failure));
            return;
        }
        if (!opened(buyer)) {
            PurchaseRoute.send(response, request, new Problem(429, "TOO_MANY_STREAMS", "Too many event streams",
                    "This buyer already follows the line on " + streamsPerBuyer + " event stream(s) here; close one"
                            + " (a reconnect with Last-Event-ID resumes where it left off).", Duration.ofSeconds(5)));
            return;
        }
        try {
            Place joined = null;
            if (joining) {
                try {
                    joined = this.joining.join(request, activity, buyer);
                } catch (Problem problem) {
                    PurchaseRoute.send(response, request, problem);
                    return;
                } catch (RuntimeException failure) {
                    PurchaseRoute.send(response, request, ProblemMapper.of(failure));
                    return;
                }
            }
            stream(request, response, buyer, activity, joined);
        } finally {
            openStreams.computeIfPresent(buyer, (id, open) -> open <= 1 ? null : open - 1);
        }
    }

    /** Counts a stream for the buyer unless they hold the most already. */
    private boolean opened(long buyer) {
        boolean[] admitted = {false};
        openStreams.compute(buyer, (id, open) -> {
            int now = open == null ? 0 : open;
            if (now >= streamsPerBuyer) {
                return open;
            }
            admitted[0] = true;
            return now + 1;
        });
        return admitted[0];
    }

    private void stream(ServerRequest request, ServerResponse response, long buyer, Activity activity, Place joined) {
        Optional<String> ticket = joined != null && joined.ticket() != null ? Optional.of(joined.ticket())
                : request.headers().first(HeaderNames.create(QueueResource.TICKET_HEADER));
        String lastEventId = joined != null ? null
                : request.headers().first(HeaderNames.create("Last-Event-ID")).orElse(null);
        response.status(Status.OK_200);
        response.header(HeaderNames.CONTENT_TYPE, "text/event-stream");
        response.header(HeaderNames.CACHE_CONTROL, "no-cache");
        // nginx would otherwise buffer the stream
        response.header(HeaderNames.create("X-Accel-Buffering"), "no");
        try (OutputStream out = response.outputStream()) {
            if (joined != null) {
                // the join's answer, ticket and all, as the first event; the stream goes on from its id
                out.write(placeEvent(joined).getBytes(StandardCharsets.UTF_8));
                lastEventId = joined.eventId();
            }
            push(activity.id(), buyer, QueueResource.lineWindow(activity), ticket, lastEventId, out);
        } catch (IOException | UncheckedIOException gone) {
            // the client left: nothing to tell anyone
        }
    }

    private void push(long activityId, long buyer, QueueWindow window, Optional<String> ticket, String lastEventId,
                      OutputStream out) throws IOException {
        String sent = lastEventId;
        long until = clock.millis() + streamSeconds * 1000;
        long lastWrite = clock.millis();
        // the headers go out at once, so a client knows it is connected before the first change
        out.write(": waiting line\n\n".getBytes(StandardCharsets.UTF_8));
        out.flush();
        // (and ends when the queue is switched off: purchases need no pass then, and a reconnect is told QUEUE_OFF)
        try (PlaceFollower follower = follow.follow(activityId, buyer, window, ticket)) {
            while (clock.millis() < until && !window.endedAt(clock.instant()) && queue.on()) {
                // the line's reader on this instance hands the place when it changed (null: nothing changed
                // within a period, or Redis silent: nothing the buyer can be told changed)
                Place place;
                try {
                    place = follower.next(Duration.ofMillis(pollMillis)).orElse(null);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                boolean used = place != null && place.state() == PlaceState.USED;
                if (used && sent != null && sent.startsWith(RESULT_ID)) {
                    // a reconnect after the purchase's events began: the place (USED) was told already
                } else if (place != null && !place.eventId().equals(sent)) {
                    sent = place.eventId();
                    out.write(placeEvent(place).getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    lastWrite = clock.millis();
                } else if (clock.millis() - lastWrite >= KEEP_ALIVE_MILLIS) {
                    out.write(":\n\n".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    lastWrite = clock.millis();
                }
                if (used) {
                    follower.close();
                    followThePurchase(activityId, buyer, sent, until, out);
                    return;
                }
                if (place != null && place.state() == PlaceState.EXPIRED) {
                    return;
                }
            }
        }
    }

    /**
     * After the pass was used: the buyer's reservations in the activity, pushed as they change, until none is
     * {@code QUEUED} (each ORDERED with its order number, or FAILED). Read from the primary stores, like
     * {@code GET …/reservations}; a store that cannot answer is asked again at the next poll.
     */
    private void followThePurchase(long activityId, long buyer, String lastSent, long until, OutputStream out)
            throws IOException {
        String sent = lastSent;
        long lastWrite = clock.millis();
        while (clock.millis() < until) {
            List<HeldReservation> held;
            try {
                held = reservations.heldBy(activityId, buyer);
            } catch (RuntimeException unavailable) {
                held = null;
            }
            if (held != null && !held.isEmpty()) {
                String json = resultJson(held);
                String id = resultId(held, json);
                if (!id.equals(sent)) {
                    sent = id;
                    String event = "id: " + id + "\nevent: reservation\nretry: 1000\ndata: " + json + "\n\n";
                    out.write(event.getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    lastWrite = clock.millis();
                }
                if (held.stream().noneMatch(r -> r.status().state() == ReservationStatus.State.QUEUED)) {
                    return;
                }
            }
            if (clock.millis() - lastWrite >= KEEP_ALIVE_MILLIS) {
                out.write(":\n\n".getBytes(StandardCharsets.UTF_8));
                out.flush();
                lastWrite = clock.millis();
            }
            if (!pause()) {
                return;
            }
        }
    }

    private static final String RESULT_ID = "r.";

    /** Names what the buyer was told of their reservations: changes whenever a state or an order appears. */
    static String resultId(List<HeldReservation> held, String json) {
        StringBuilder id = new StringBuilder(RESULT_ID);
        for (HeldReservation r : held) {
            id.append(r.status().state().name().charAt(0));
        }
        return id.append('.').append(Integer.toHexString(json.hashCode())).toString();
    }

    static String resultJson(List<HeldReservation> held) {
        JsonArrayBuilder list = Jsons.PROVIDER.createArrayBuilder();
        for (HeldReservation r : held) {
            JsonObjectBuilder json = ReservationsResource.json(r.status()).add("skuId", r.skuId());
            r.quantity().ifPresent(q -> json.add("quantity", q));
            list.add(json);
        }
        return Jsons.PROVIDER.createObjectBuilder().add("reservations", list).build().toString();
    }

    private boolean pause() {
        try {
            Thread.sleep(pollMillis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
