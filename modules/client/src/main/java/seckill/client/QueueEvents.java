package seckill.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.Optional;
import java.util.function.LongFunction;
import java.util.function.Predicate;
import java.util.stream.Stream;

import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;

/**
 * A buyer following their place in the waiting line over Server-Sent Events
 * ({@code GET /api/v1/activities/{activityId}/queue/events}, {@code text/event-stream}; joining and following in
 * one request with {@link #joinAndFollow}, {@code POST} on the same path): events {@code place}
 * (a {@link QueuePlace}) while they wait, then, once their pass bought, events {@code reservation} (their
 * {@link BuyerReservations}: QUEUED, then ORDERED with the order number, or FAILED). When the service ends a
 * stream (it lasts {@code seckill.queue.events-max-seconds}) or the connection drops, this reconnects after the
 * stream's {@code retry} with {@code Last-Event-ID}, so it is sent only what changed since. Built by
 * {@link SeckillClients#queueEvents(URI, LongFunction)}; needs a JSON-B provider, like the REST client.
 */
public final class QueueEvents {

    /** One event of the stream, with the id the service gave it. */
    public sealed interface Event permits PlaceChanged, ReservationsChanged {
        String id();
    }

    /** Event {@code place}: where the buyer stands now. */
    public record PlaceChanged(String id, QueuePlace place) implements Event {
    }

    /** Event {@code reservation}: the buyer's reservations in the activity after the pass was used. */
    public record ReservationsChanged(String id, BuyerReservations reservations) implements Event {
    }

    /** The stream ended on the caller's deadline before the caller had what it followed for. */
    public static final class DeadlinePassed extends RuntimeException {
        DeadlinePassed(String message) {
            super(message);
        }
    }

    private static final Duration DEFAULT_RETRY = Duration.ofSeconds(1);

    private final URI base;
    private final LongFunction<String> bearerOf;
    private final HttpClient http;
    private final Clock clock;
    private final Jsonb json = JsonbBuilder.create();

    /** {@code bearerOf.apply(userId)}: the buyer's bearer token; null sends {@code X-User-Id} (behind a gateway). */
    QueueEvents(URI base, LongFunction<String> bearerOf, Clock clock) {
        this.base = base;
        this.bearerOf = bearerOf;
        this.clock = clock;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    }

    /**
     * Follows {@code userId}'s place in {@code activityId}'s line, handing each event to {@code keepGoing} until it
     * answers false (then returns that event), reconnecting with {@code Last-Event-ID} whenever a stream ends.
     * {@code ticket} (may be null) is sent as {@code X-Queue-Ticket}; {@code lastEventId} (may be null) resumes an
     * earlier stream. Throws the service's {@link SeckillProblem} for a refusal (e.g. {@code 409 QUEUE_OFF}),
     * {@link DeadlinePassed} at {@code deadline}.
     */
    public Event follow(long activityId, long userId, String ticket, String lastEventId, Instant deadline,
                        Predicate<Event> keepGoing) throws InterruptedException {
        return stream(activityId, userId, ticket, lastEventId, false, null, deadline, keepGoing);
    }

    /**
     * Joins {@code activityId}'s line and follows the place in one request ({@code POST …/queue/events}, whose first
     * event is the place joined, ticket included), then as {@link #follow} does: a stream that ends is followed again
     * by {@code GET} with that ticket and {@code Last-Event-ID}. {@code purchaseToken} (may be null) is sent as
     * {@code X-Purchase-Token}. A join refused for good throws the service's {@link SeckillProblem} (e.g.
     * {@code 410 SOLD_OUT}); one refused for now ({@code 503}) is sent again after its {@code Retry-After}.
     */
    public Event joinAndFollow(long activityId, long userId, String purchaseToken, Instant deadline,
                               Predicate<Event> keepGoing) throws InterruptedException {
        return stream(activityId, userId, null, null, true, purchaseToken, deadline, keepGoing);
    }

    private Event stream(long activityId, long userId, String ticket, String lastEventId, boolean joinFirst,
                         String purchaseToken, Instant deadline, Predicate<Event> keepGoing)
            throws InterruptedException {
        String last = lastEventId;
        boolean joining = joinFirst;
        Duration retry = DEFAULT_RETRY;
        while (clock.instant().isBefore(deadline)) {
            HttpRequest.Builder request = HttpRequest.newBuilder(
                            base.resolve("/api/v1/activities/" + activityId + "/queue/events"))
                    .header("Accept", "text/event-stream");
            if (joining) {
                request.POST(HttpRequest.BodyPublishers.noBody());
                if (purchaseToken != null) {
                    request.header(SeckillApi.TOKEN, purchaseToken);
                }
            } else {
                request.GET();
            }
            String bearer = bearerOf == null ? null : bearerOf.apply(userId);
            if (bearer != null) {
                request.header("Authorization", "Bearer " + bearer);
            } else {
                request.header(SeckillApi.USER, Long.toString(userId));
            }
            if (ticket != null) {
                request.header(SeckillApi.TICKET, ticket);
            }
            if (last != null) {
                request.header("Last-Event-ID", last);
            }
            HttpResponse<Stream<String>> response;
            try {
                response = http.send(request.build(), HttpResponse.BodyHandlers.ofLines());
            } catch (IOException connectionFailed) {
                pauseBefore(retry, deadline);
                continue;
            }
            if (response.statusCode() != 200) {
                String body;
                try (Stream<String> lines = response.body()) {
                    body = String.join("\n", (Iterable<String>) lines::iterator);
                }
                SeckillProblem problem = ProblemExceptions.of(response.statusCode(), body,
                        response.headers().firstValue("Retry-After").flatMap(this::retryAfter));
                if (!problem.retryable() && problem.status() < 500) {
                    throw problem;
                }
                pauseBefore(problem.retryAfter().orElse(retry), deadline);
                continue;
            }
            EventStream stream = new EventStream();
            try (Stream<String> lines = response.body()) {
                Iterator<String> it = lines.iterator();
                while (it.hasNext()) {
                    Optional<EventStream.Dispatched> dispatched = stream.line(it.next());
                    if (dispatched.isPresent()) {
                        Event event = event(dispatched.get());
                        if (event != null) {
                            last = event.id();
                            if (joining && event instanceof PlaceChanged joined) {
                                // joined: a stream that ends is followed again, not joined again
                                joining = false;
                                if (joined.place().ticket() != null) {
                                    ticket = joined.place().ticket();
                                }
                            }
                            if (!keepGoing.test(event)) {
                                return event;
                            }
                        }
                    }
                    if (!clock.instant().isBefore(deadline)) {
                        break;
                    }
                }
            } catch (UncheckedIOException dropped) {
                // the connection dropped mid-stream: reconnect with the last id
            }
            if (stream.lastEventId() != null) {
                last = stream.lastEventId();
            }
            retry = stream.retry().orElse(retry);
            pauseBefore(retry, deadline);
        }
        throw new DeadlinePassed("the waiting line's events gave no final answer before " + deadline);
    }

    private Event event(EventStream.Dispatched dispatched) {
        return switch (dispatched.type()) {
            case "place" -> new PlaceChanged(dispatched.id(), json.fromJson(dispatched.data(), QueuePlace.class));
            case "reservation" -> new ReservationsChanged(dispatched.id(),
                    json.fromJson(dispatched.data(), BuyerReservations.class));
            default -> null;  // an event type this client does not know yet: skipped
        };
    }

    /**
     * {@code Retry-After} as seconds or as an HTTP date (RFC 9110 allows both; a proxy or CDN may send the date), so
     * that neither fails the client (a date used to throw NumberFormatException out of {@link #joinAndFollow}).
     */
    private Optional<Duration> retryAfter(String header) {
        String value = header.trim();
        try {
            return Optional.of(Duration.ofSeconds(Math.max(0, Long.parseLong(value))));
        } catch (NumberFormatException notSeconds) {
            try {
                Instant at = java.time.ZonedDateTime.parse(value, java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME)
                        .toInstant();
                Duration wait = Duration.between(clock.instant(), at);
                return Optional.of(wait.isNegative() ? Duration.ZERO : wait);
            } catch (java.time.format.DateTimeParseException neither) {
                return Optional.empty();
            }
        }
    }

    private void pauseBefore(Duration retry, Instant deadline) throws InterruptedException {
        Duration left = Duration.between(clock.instant(), deadline);
        if (left.isNegative() || left.isZero()) {
            return;
        }
        Thread.sleep(retry.compareTo(left) < 0 ? retry : left);
    }
}
