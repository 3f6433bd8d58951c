package seckill.client;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * An RFC 9457 problem the service answered: the HTTP status, the stable {@code code}, the detail
 * for humans, the {@code Retry-After} when a retry can help, and the problem's extension fields.
 * Subclasses name the answers a buyer's code acts on; anything else arrives as this class.
 */
public class SeckillProblem extends RuntimeException {

    private final int status;
    private final String code;
    private final Optional<Duration> retryAfter;
    private final Map<String, String> fields;

    public SeckillProblem(int status, String code, String detail, Optional<Duration> retryAfter,
                          Map<String, String> fields) {
        super(status + " " + code + (detail == null ? "" : ": " + detail));
        this.status = status;
        this.code = code;
        this.retryAfter = retryAfter;
        this.fields = Map.copyOf(fields);
    }

    protected SeckillProblem(SeckillProblem problem) {
        this(problem.status, problem.code, problem.detail(), problem.retryAfter, problem.fields);
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public String detail() {
        String message = getMessage();
        int colon = message.indexOf(": ");
        return colon < 0 ? null : message.substring(colon + 2);
    }

    /** How long to wait before asking again, when the service said. */
    public Optional<Duration> retryAfter() {
        return retryAfter;
    }

    /** An extension field of the problem (e.g. {@code limit}, {@code reason}, {@code startsAt}). */
    public Optional<String> field(String name) {
        return Optional.ofNullable(fields.get(name));
    }

    /** Whether asking again, after {@link #retryAfter()}, can succeed: nothing happened this time. */
    public boolean retryable() {
        return retryAfter.isPresent() && (status == 429 || status == 503 || status == 409);
    }

    /** {@code 410 SOLD_OUT}: no unit is left; {@link #reservations()} is where the buyer finds what they hold. */
    public static final class SoldOut extends SeckillProblem {
        SoldOut(SeckillProblem problem) {
            super(problem);
        }

        public Optional<String> reservations() {
            return field("reservations");
        }
    }

    /** {@code 429 THROTTLED}: over the buyer's rate ({@code limit} BUYER) or the activity's (GLOBAL); queue and retry. */
    public static final class Throttled extends SeckillProblem {
        Throttled(SeckillProblem problem) {
            super(problem);
        }

        public String limit() {
            return field("limit").orElse("GLOBAL");
        }
    }

    /**
     * {@code 403 TOKEN_INVALID}: no valid purchase token; get a new one. The service no longer says why
     * (#36: the reason helped forgers), so {@link #reason()} is {@code UNKNOWN} unless an older service
     * sent one.
     */
    public static final class TokenInvalid extends SeckillProblem {
        TokenInvalid(SeckillProblem problem) {
            super(problem);
        }

        public String reason() {
            return field("reason").orElse("UNKNOWN");
        }
    }

    /** {@code 503 HALTED}: sales are paused on this instance; nothing certain happened, retry. */
    public static final class Halted extends SeckillProblem {
        Halted(SeckillProblem problem) {
            super(problem);
        }
    }

    /** {@code 409 NOT_STARTED}: the sale opens at {@link #startsAt()}. */
    public static final class NotStarted extends SeckillProblem {
        NotStarted(SeckillProblem problem) {
            super(problem);
        }

        public Optional<String> startsAt() {
            return field("startsAt");
        }
    }

    /** {@code 409 ENDED}: the sale is over. */
    public static final class Ended extends SeckillProblem {
        Ended(SeckillProblem problem) {
            super(problem);
        }
    }

    /** {@code 503 BUSY}, {@code NOT_READY}, {@code DATABASE_UNAVAILABLE}, {@code REDIS_UNAVAILABLE}: try again shortly. */
    public static final class Unavailable extends SeckillProblem {
        Unavailable(SeckillProblem problem) {
            super(problem);
        }
    }

    /** {@code 409 PURCHASE_IN_PROGRESS}: another click of the same buyer is being served; ask again for its result. */
    public static final class InProgress extends SeckillProblem {
        InProgress(SeckillProblem problem) {
            super(problem);
        }
    }

    /** {@code 409 INSUFFICIENT_STOCK}: fewer units left than asked for. */
    public static final class InsufficientStock extends SeckillProblem {
        InsufficientStock(SeckillProblem problem) {
            super(problem);
        }

        public long remaining() {
            return field("remaining").map(Long::parseLong).orElse(0L);
        }
    }

    /** {@code 403 BLOCKED}: the buyer or their address may not take part. */
    public static final class Blocked extends SeckillProblem {
        Blocked(SeckillProblem problem) {
            super(problem);
        }
    }

    /**
     * {@code 403 QUEUE_PASS_REQUIRED}: the waiting line is on and the purchase showed no valid pass; join the line
     * at {@link #queue()} and buy with the pass given on the buyer's turn ({@link Buying} does). {@link #reason()}
     * is MISSING, EXPIRED or INVALID.
     */
    public static final class QueuePassRequired extends SeckillProblem {
        QueuePassRequired(SeckillProblem problem) {
            super(problem);
        }

        public String reason() {
            return field("reason").orElse("MISSING");
        }

        /** The line's path, {@code /api/v1/activities/{activityId}/queue}. */
        public Optional<String> queue() {
            return field("queue");
        }
    }

    /** The typed form of a problem, by its code. */
    static SeckillProblem typed(SeckillProblem problem) {
        return switch (problem.code()) {
            case "SOLD_OUT" -> new SoldOut(problem);
            case "THROTTLED" -> new Throttled(problem);
            case "TOKEN_INVALID" -> new TokenInvalid(problem);
            case "HALTED" -> new Halted(problem);
            case "NOT_STARTED" -> new NotStarted(problem);
            case "ENDED" -> new Ended(problem);
            case "BUSY", "NOT_READY", "DATABASE_UNAVAILABLE", "REDIS_UNAVAILABLE", "TIMEOUT", "QUEUE_UNAVAILABLE" ->
                    new Unavailable(problem);
            case "PURCHASE_IN_PROGRESS" -> new InProgress(problem);
            case "INSUFFICIENT_STOCK" -> new InsufficientStock(problem);
            case "BLOCKED" -> new Blocked(problem);
            case "QUEUE_PASS_REQUIRED" -> new QueuePassRequired(problem);
            default -> problem;
        };
    }
}
