package seckill.reservation.rules;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import seckill.redis.RedisFailures;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.ReservationOutcome;
import seckill.reservation.api.ReservationUnavailable;
import seckill.reservation.api.ReserveStock;

/**
 * The cross-bucket protocol, once the buyer's home bucket ran dry: claim the buyer at home, ask each
 * other bucket once, in a fixed order, for the units, then settle the claim (pointing at the
 * reservation, or released). Sold out only when every bucket said so in this pass, so a sale whose
 * buckets drained unevenly still sells every unit, in at most {@code buckets} calls. Each step is
 * one atomic script on its own slot, behind {@link Steps}; this class holds the order and what a
 * failure between steps means, and knows nothing of Redis.
 */
public final class DonorBuckets {

    /**
     * Prefix of the buyer's home record while a claim is pending: {@code pending:<sequence>:<requestId>}
     * (records of earlier versions end after the sequence). The sequence names the reservation ids the
     * claim's takes use, one per donor bucket; the requestId lets the buyer's retry settle a claim whose
     * take is in doubt ({@link #resume}).
     */
    public static final String PENDING = "pending:";

    /** The three atomic steps, each on one bucket's slot. */
    public interface Steps {

        /** Records a pending claim; returns the value already held for the buyer, or empty when claimed. */
        String claim(int home, long userId, String pendingValue);

        /** {verdict, value, remaining} as {@code reserve.lua} answers, for a unit taken from {@code id.bucket()}. */
        List<String> take(ReservationId id, long userId, int quantity, String requestId, Instant reservedAt);

        /** Replaces the buyer's record if it still is {@code expected}; an empty replacement removes it. */
        void settle(int home, long userId, String expected, String replacement);

        /**
         * {@code TAKEN} if the donor {@code id.bucket()} gave the buyer units under {@code id}; otherwise
         * {@code WITHDRAWN}, and a take under {@code id} arriving later takes nothing.
         */
        String withdraw(ReservationId id, long userId);
    }

    private final Steps steps;
    private final System.Logger log = System.getLogger(DonorBuckets.class.getName());

    public DonorBuckets(Steps steps) {
        this.steps = steps;
    }

    /**
     * Reserves for a buyer whose home bucket answered {@code atHome} (sold out, or too few units),
     * with {@code homeCandidate}'s sequence for the id; at {@code now}.
     */
    public ReservationOutcome reserve(ReserveStock command, ReservationId homeCandidate, ReservationOutcome atHome,
                                      Instant now) {
        int home = homeCandidate.bucket();
        String pending = PENDING + homeCandidate.sequence() + ":" + command.requestId();
        String held;
        try {
            held = steps.claim(home, command.userId(), pending);
        } catch (RuntimeException e) {
            throw new ReservationUnavailable("reservation across buckets failed", e, !RedisFailures.poolExhausted(e));
        }
        if (held.startsWith(PENDING)) {
            // another click of theirs is taking units from a donor right now; its id is not known yet
            return new ReservationOutcome.InProgress();
        }
        if (!held.isEmpty()) {
            return ReservationId.parse(held).<ReservationOutcome>map(ReservationOutcome.AlreadyReserved::new)
                    .orElseThrow(() -> new IllegalStateException("malformed reservation id in Redis: " + held));
        }
        ReservationOutcome.Reserved taken = null;
        try {
            long bestRemaining = atHome instanceof ReservationOutcome.InsufficientStock i ? i.remaining() : 0;
            for (int step = 1; step < command.buckets(); step++) {
                int donor = (home + step) % command.buckets();
                ReservationId id = new ReservationId(command.activityId(), command.skuId(), donor, homeCandidate.sequence());
                List<String> reply = steps.take(id, command.userId(), command.quantity(), command.requestId(), now);
                switch (reply.get(0)) {
                    case "RESERVED" -> {
                        taken = new ReservationOutcome.Reserved(id, Long.parseLong(reply.get(2)), false);
                        steps.settle(home, command.userId(), pending, id.toString());
                        return taken;
                    }
                    case "ID_TAKEN" -> {
                        // the donor gave a unit under this id to another buyer: the id is not ours alone (see
                        // ReservationOutcome.IdTaken). Nothing taken here; the claim goes, for a try under a new id
                        steps.settle(home, command.userId(), pending, "");
                        return new ReservationOutcome.IdTaken(id);
                    }
                    case "WITHDRAWN" -> {
                        // the buyer's retry settled this claim while this attempt's take was on its way
                        // (resume): nothing was taken, and what the buyer holds is the retry's to say. Not
                        // sold out: stock may remain, and a sold-out answer would raise the flag over it
                        return new ReservationOutcome.InProgress();
                    }
                    case "INSUFFICIENT" -> bestRemaining = Math.max(bestRemaining, Long.parseLong(reply.get(1)));
                    default -> {
                        // sold out or not preheated: the next bucket
                    }
                }
            }
            steps.settle(home, command.userId(), pending, "");
            return bestRemaining > 0 ? new ReservationOutcome.InsufficientStock(bestRemaining)
                    : new ReservationOutcome.SoldOut();
        } catch (RuntimeException e) {
            if (taken != null) {
                // the unit is taken and its event recorded: the buyer has it; point their record at it
                settleQuietly(home, command.userId(), pending, taken.id().toString());
                return taken;
            }
            boolean inDoubt = !RedisFailures.poolExhausted(e);
            if (!inDoubt) {
                // nothing was sent after the claim: give the buyer their home record back, or they are
                // locked out of the sale by a claim nobody will settle
                settleQuietly(home, command.userId(), pending, "");
            }
            throw new ReservationUnavailable("reservation across buckets failed", e, inDoubt);
        }
    }

    /**
     * Whether {@code held}, the buyer's home record, is a pending claim made by a request with
     * {@code requestId}: the buyer's own earlier attempt, whose take from a donor is in doubt.
     */
    public static boolean pendingOf(String held, String requestId) {
        return held != null && held.startsWith(PENDING) && held.indexOf(':', PENDING.length()) > 0
                && held.substring(held.indexOf(':', PENDING.length()) + 1).equals(requestId);
    }

    /** The sequence a pending claim's takes use, if {@code held} is one. */
    public static Optional<Long> pendingSequence(String held) {
        if (held == null || !held.startsWith(PENDING)) {
            return Optional.empty();
        }
        int end = held.indexOf(':', PENDING.length());
        try {
            return Optional.of(Long.parseLong(held, PENDING.length(), end < 0 ? held.length() : end, 10));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * Settles the buyer's own pending claim {@code held} (see {@link #pendingOf}), left behind when a
     * take's answer was lost: every donor is asked whether it gave units under the claim's ids, and
     * withdraws them if not, so the lost take can no longer happen. The buyer then holds the unit a
     * donor gave (the answer), or nothing: the claim is removed and empty comes back, for a fresh try.
     * Each step is idempotent; a failure leaves the claim for the next retry.
     */
    public Optional<ReservationOutcome> resume(ReserveStock command, int home, String held) {
        long sequence = pendingSequence(held).orElseThrow(() -> new IllegalArgumentException("not a claim: " + held));
        try {
            ReservationId taken = null;
            // every donor, not only up to the first that gave: the lost take may still be on its way to a
            // later one, and must find its id withdrawn there
            for (int step = 1; step < command.buckets(); step++) {
                int donor = (home + step) % command.buckets();
                ReservationId id = new ReservationId(command.activityId(), command.skuId(), donor, sequence);
                if ("TAKEN".equals(steps.withdraw(id, command.userId())) && taken == null) {
                    taken = id;
                }
            }
            steps.settle(home, command.userId(), held, taken == null ? "" : taken.toString());
            if (taken != null) {
                log.log(System.Logger.Level.INFO, "buyer " + command.userId() + "'s retry found the unit their lost "
                        + "take got: " + taken);
                return Optional.of(new ReservationOutcome.AlreadyReserved(taken));
            }
            return Optional.empty();
        } catch (RuntimeException e) {
            throw new ReservationUnavailable("settling an earlier purchase across buckets failed", e,
                    !RedisFailures.poolExhausted(e));
        }
    }

    private void settleQuietly(int home, long userId, String pending, String replacement) {
        try {
            steps.settle(home, userId, pending, replacement);
        } catch (RuntimeException e) {
            log.log(System.Logger.Level.WARNING, "the pending claim of buyer " + userId + " could not be settled: "
                    + e.getMessage());
        }
    }
}
