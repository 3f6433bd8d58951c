package seckill.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import jakarta.ws.rs.ProcessingException;

/**
 * A purchase the way a flash sale asks clients to make it, for one buyer: answers that say "nothing
 * happened, ask again" ({@code 429}, {@code 503}, {@code 409} with {@code Retry-After}) are retried
 * after their {@code Retry-After}, up to the caller's deadline, always with the same request id, so
 * a retry can only return the buyer's reservation, never a second one. When the answer is lost (the
 * connection failed, a 5xx without {@code Retry-After}) or the SKU is sold out, the buyer's
 * reservations are looked up before anything is reported: a reservation that exists is never
 * reported as a loss.
 */
public final class Buying {

    /** How the client waits; tests pass one that does not sleep. */
    public interface Pause {
        void sleep(Duration duration) throws InterruptedException;
    }

    /** The deadline passed before the purchase got a final answer. */
    public static final class DeadlinePassed extends RuntimeException {
        DeadlinePassed(String message, Throwable last) {
            super(message, last);
        }
    }

    private static final Duration AFTER_A_LOST_ANSWER = Duration.ofMillis(500);

    private static final Duration POLL = Duration.ofMillis(500);

    private final SeckillApi api;
    private final QueueEvents events;
    private final Clock clock;
    private final Pause pause;

    public Buying(SeckillApi api) {
        this(api, null, Clock.systemUTC(), duration -> Thread.sleep(duration));
    }

    /**
     * A buyer who also goes through the waiting line when the service asks for it ({@code 403 QUEUE_PASS_REQUIRED}):
     * see {@link #buyAndAwaitOrder}. {@code events} is {@link SeckillClients#queueEvents}, for the same buyers.
     */
    public Buying(SeckillApi api, QueueEvents events) {
        this(api, events, Clock.systemUTC(), duration -> Thread.sleep(duration));
    }

    public Buying(SeckillApi api, Clock clock, Pause pause) {
        this(api, null, clock, pause);
    }

    public Buying(SeckillApi api, QueueEvents events, Clock clock, Pause pause) {
        this.api = api;
        this.events = events;
        this.clock = clock;
        this.pause = pause;
    }

    /**
     * Buys for {@code userId} until {@code deadline}. Returns the buyer's reservation (new, or the one
     * they already held); throws the final {@link SeckillProblem} (sold out with nothing held, ended,
     * token invalid, blocked, ...) or {@link DeadlinePassed}.
     */
    public Reservation buy(long activityId, long userId, String token, PurchaseRequest request, Instant deadline)
            throws InterruptedException {
        return buy(activityId, userId, token, null, request, deadline);
    }

    /**
     * Buys for {@code userId} and waits for the order, going through the waiting line when the service asks for it:
     * a purchase answered {@code 403 QUEUE_PASS_REQUIRED} joins the line and follows the place pushed on the same
     * request ({@code POST …/queue/events}, {@link QueueEvents#joinAndFollow}) until the buyer's turn, buys again (the same {@code requestId}) with the
     * pass as {@code X-Queue-Pass}, then follows the same stream (reconnecting with {@code Last-Event-ID}) until the
     * reservation is no longer QUEUED. Returns the reservation as pushed: ORDERED with its {@code orderNo}, or
     * FAILED with its reason. A pass that expired unused, or a place the service lost, joins again. A join refused
     * {@code 409 QUEUE_OFF} (the line switched off meanwhile) buys directly after a short pause. Throws
     * {@link SeckillProblem.SoldOut} when the line closed sold out and the buyer holds nothing, any other final
     * problem as {@link #buy} does, or {@link DeadlinePassed}. Without the queue on, it buys and polls
     * {@code GET /api/v1/reservations/{id}} for the order.
     */
    public ReservationView buyAndAwaitOrder(long activityId, long userId, String token, PurchaseRequest request,
                                            Instant deadline) throws InterruptedException {
        String pass = null;
        String ticket = null;
        String lastEventId = null;
        Reservation reservation;
        while (true) {
            try {
                reservation = buy(activityId, userId, token, pass, request, deadline);
                break;
            } catch (SeckillProblem.QueuePassRequired required) {
                if (events == null) {
                    throw required;
                }
                // joined and followed in one request: its first event is the place joined, ticket included
                String[] joinedTicket = {null};
                QueueEvents.Event last;
                try {
                    last = events.joinAndFollow(activityId, userId, token, deadline, event -> {
                        if (event instanceof QueueEvents.PlaceChanged changed && changed.place().ticket() != null
                                && joinedTicket[0] == null) {
                            joinedTicket[0] = changed.place().ticket();
                        }
                        return !(event instanceof QueueEvents.PlaceChanged changed
                                && turnOrEnd(changed.place().state()));
                    });
                } catch (QueueEvents.DeadlinePassed passed) {
                    throw new DeadlinePassed("not called from the waiting line before " + deadline, passed);
                } catch (SeckillProblem.SoldOut closed) {
                    // the line closed and holds no place of this buyer: what they hold (an earlier call that
                    // bought, its answer lost, or a place Redis lost) is the answer, never reported as a loss
                    Optional<Reservation> mine = heldQuietly(activityId, userId, request.skuId());
                    if (mine.isEmpty()) {
                        throw closed;
                    }
                    return awaitOrder(activityId, userId, null, false, null, mine.get(), deadline);
                } catch (SeckillProblem off) {
                    if (!"QUEUE_OFF".equals(off.code())) {
                        throw off;
                    }
                    // the queue was switched off since the purchase asked for a pass (or this instance has not seen
                    // it switched on yet): buy directly, as the page does, after a pause, so that two instances
                    // disagreeing for a moment do not make the buyer spin between the purchase and the line
                    if (!clock.instant().plus(AFTER_A_LOST_ANSWER).isBefore(deadline)) {
                        throw new DeadlinePassed("the waiting line was off and the purchase asked for a pass until "
                                + deadline, off);
                    }
                    pause.sleep(AFTER_A_LOST_ANSWER);
                    pass = null;
                    continue;
                }
                lastEventId = last.id();
                QueuePlace place = ((QueueEvents.PlaceChanged) last).place();
                ticket = place.ticket() != null ? place.ticket() : joinedTicket[0];
                switch (place.state()) {
                    case "YOUR_TURN" -> pass = place.pass();
                    case "SOLD_OUT", "USED" -> {
                        // the line closed, or this buyer's pass bought already (an earlier call, or an answer
                        // lost on its way): what they hold is the answer
                        Optional<Reservation> mine = held(activityId, userId, request.skuId());
                        if (mine.isEmpty()) {
                            if (place.state().equals("USED")) {
                                throw required;
                            }
                            throw (SeckillProblem.SoldOut) SeckillProblem.typed(new SeckillProblem(410, "SOLD_OUT",
                                    "the waiting line closed: every unit is sold", Optional.empty(),
                                    java.util.Map.of("reservations", "/api/v1/activities/" + activityId
                                            + "/reservations")));
                        }
                        return awaitOrder(activityId, userId, ticket, true, lastEventId, mine.get(), deadline);
                    }
                    default -> pass = null;  // EXPIRED, NOT_IN_LINE: join again (the end of the line)
                }
            }
        }
        return awaitOrder(activityId, userId, ticket, pass != null, lastEventId, reservation, deadline);
    }

    private static boolean turnOrEnd(String state) {
        return switch (state) {
            case "YOUR_TURN", "SOLD_OUT", "EXPIRED", "USED", "NOT_IN_LINE" -> true;
            default -> false;
        };
    }

    /**
     * The reservation until it is no longer QUEUED: pushed by the line's stream when the purchase came through it
     * (resuming after {@code lastEventId}, may be null), else (or when the stream is refused) polled.
     */
    private ReservationView awaitOrder(long activityId, long userId, String ticket, boolean throughTheLine,
                                       String lastEventId, Reservation reservation, Instant deadline)
            throws InterruptedException {
        if (events != null && throughTheLine) {
            try {
                QueueEvents.Event done = events.follow(activityId, userId, ticket, lastEventId, deadline,
                        event -> settled(event, reservation.reservationId()).isEmpty());
                return settled(done, reservation.reservationId()).orElseThrow();
            } catch (QueueEvents.DeadlinePassed passed) {
                throw new DeadlinePassed("no order for " + reservation.reservationId() + " before " + deadline, passed);
            } catch (SeckillProblem refused) {
                // the stream refused (the queue switched off meanwhile): ask instead
            }
        }
        while (true) {
            try {
                ReservationView view = api.reservation(reservation.reservationId(), userId);
                if (!"QUEUED".equals(view.status())) {
                    return view;
                }
            } catch (SeckillProblem | ProcessingException notNow) {
                if (notNow instanceof SeckillProblem problem && !problem.retryable() && problem.status() < 500
                        && problem.status() != 404) {
                    throw problem;
                }
            }
            if (!clock.instant().plus(POLL).isBefore(deadline)) {
                throw new DeadlinePassed("no order for " + reservation.reservationId() + " before " + deadline, null);
            }
            pause.sleep(POLL);
        }
    }

    private static Optional<ReservationView> settled(QueueEvents.Event event, String reservationId) {
        if (event instanceof QueueEvents.ReservationsChanged changed) {
            return changed.reservations().reservations().stream()
                    .filter(r -> reservationId.equals(r.reservationId()) && !"QUEUED".equals(r.status()))
                    .findFirst();
        }
        return Optional.empty();
    }

    private Reservation buy(long activityId, long userId, String token, String pass, PurchaseRequest request,
                            Instant deadline) throws InterruptedException {
        RuntimeException last = null;
        while (true) {
            Duration wait;
            try {
                return pass == null ? api.purchase(activityId, userId, token, request)
                        : api.purchase(activityId, userId, token, pass, request);
            } catch (SeckillProblem.SoldOut soldOut) {
                // the holder's own retry is told sold out from memory: what they hold is the answer
                return held(activityId, userId, request.skuId()).orElseThrow(() -> soldOut);
            } catch (SeckillProblem problem) {
                if (problem.retryable()) {
                    wait = problem.retryAfter().orElseThrow();
                } else if (problem.status() >= 500) {
                    Optional<Reservation> mine = heldQuietly(activityId, userId, request.skuId());
                    if (mine.isPresent()) {
                        return mine.get();
                    }
                    wait = AFTER_A_LOST_ANSWER;
                } else {
                    throw problem;
                }
                last = problem;
            } catch (ProcessingException lostAnswer) {
                Optional<Reservation> mine = heldQuietly(activityId, userId, request.skuId());
                if (mine.isPresent()) {
                    return mine.get();
                }
                wait = AFTER_A_LOST_ANSWER;
                last = lostAnswer;
            }
            Instant now = clock.instant();
            if (!now.plus(wait).isBefore(deadline)) {
                // one last look before giving up: an answer lost on the way may still have reserved
                Optional<Reservation> mine = heldQuietly(activityId, userId, request.skuId());
                if (mine.isPresent()) {
                    return mine.get();
                }
                throw new DeadlinePassed("no final answer before " + deadline, last);
            }
            pause.sleep(wait);
        }
    }

    private Optional<Reservation> held(long activityId, long userId, long skuId) {
        return api.reservations(activityId, userId).reservations().stream()
                .filter(r -> r.skuId() != null && r.skuId() == skuId && !"FAILED".equals(r.status()))
                .findFirst()
                .map(r -> new Reservation(r.reservationId(), "ALREADY_RESERVED"));
    }

    private Optional<Reservation> heldQuietly(long activityId, long userId, long skuId) {
        try {
            return held(activityId, userId, skuId);
        } catch (SeckillProblem | ProcessingException stillAway) {
            return Optional.empty();
        }
    }
}
