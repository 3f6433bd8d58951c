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

    private final SeckillApi api;
    private final Clock clock;
    private final Pause pause;

    public Buying(SeckillApi api) {
        this(api, Clock.systemUTC(), duration -> Thread.sleep(duration));
    }

    public Buying(SeckillApi api, Clock clock, Pause pause) {
        this.api = api;
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
        RuntimeException last = null;
        while (true) {
            Duration wait;
            try {
                return api.purchase(activityId, userId, token, request);
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
