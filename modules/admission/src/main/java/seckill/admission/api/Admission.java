package seckill.admission.api;

import seckill.redis.World;

/**
 * The admission module's door: judge an attempt cheaply, in memory where possible, and learn from
 * reservation results (a SKU seen sold out is answered locally from then on).
 */
public interface Admission {

    AdmissionDecision admit(PurchaseAttempt attempt);

    /**
     * A buyer asking to join the activity's waiting line (issue #33): the checks of a purchase that say who
     * may take part, all from memory: halt, the blocklists, the sale's end, and the purchase token when tokens
     * are required and the sale has started (tokens are issued only while it is open, so a pre-queue join
     * cannot show one; the purchase behind the line still must). The token is verified, not spent: it buys
     * after the buyer's turn. No sold-out flag (the line knows the stock) and no rate limit (the line is
     * one). Answers {@link AdmissionDecision.Admitted} or the refusal.
     */
    AdmissionDecision admitToLine(PurchaseAttempt attempt);

    /**
     * The reservation step refused an admitted attempt: the buyer is over their window
     * ({@code attempts} in it, ending in {@code retryAfterMillis}). Remembers it, so the buyer's next
     * clicks are answered from memory, and returns the decision to answer with.
     */
    AdmissionDecision throttledAtReservation(PurchaseAttempt attempt, long attempts, long retryAfterMillis);

    /** Records that reservation found the SKU sold out. */
    void soldOut(long activityId, long skuId);

    /**
     * Records a reservation that left {@code remaining} units of the SKU; flags it sold out once that
     * is at or below the operator's threshold ({@code seckill.admission.sold-out-threshold}).
     */
    void reservedLeaving(long activityId, long skuId, long remaining);

    /** Withdraws a sold-out flag (stock came back). */
    void restocked(long activityId, long skuId);

    /**
     * Stops issuing reservations of real sales on this instance: every real attempt is answered HALTED until
     * {@link #resume()}. Called when Redis is in doubt, or by an operator. {@link #halt(World, HaltReason)} for
     * {@code World.REAL}.
     */
    default void halt(HaltReason reason) {
        halt(World.REAL, reason);
    }

    /** {@link #resume(World)} of the real world. */
    default void resume() {
        resume(World.REAL);
    }

    /** {@link #explainHalt(World, HaltReason, HaltReason)} of the real world. */
    default boolean explainHalt(HaltReason was, HaltReason now) {
        return explainHalt(World.REAL, was, now);
    }

    /** Why real sales are halted, or empty when they are not. */
    default java.util.Optional<HaltReason> haltedBecause() {
        return haltedBecause(World.REAL);
    }

    /**
     * Stops issuing reservations of {@code world}'s activities on this instance (docs/rehearsal.md: one halt state
     * per world, so Redis doubt met by a rehearsal halts rehearsals only, never real sales); every attempt of that
     * world is answered HALTED until {@link #resume(World)}. A halt already in force keeps its reason.
     */
    void halt(World world, HaltReason reason);

    /** Lifts {@code world}'s halt (nothing when it is not halted). */
    void resume(World world);

    /**
     * Says better why {@code world}'s sales are halted, if they still are for {@code was}: e.g. a halt in doubt whose
     * cause turns out to be a missing replica. Sales stay halted throughout (no resume in between);
     * returns whether the reason was replaced.
     */
    boolean explainHalt(World world, HaltReason was, HaltReason now);

    /**
     * Why {@code world}'s sales are halted, or empty when they are not (the hot switch {@code seckill.admission.halt}
     * is not a halt state: it refuses both worlds' attempts while on, and says so in each refusal).
     */
    java.util.Optional<HaltReason> haltedBecause(World world);

    /** Whether this instance currently answers the SKU as sold out without asking Redis. */
    boolean isFlaggedSoldOut(long activityId, long skuId);
}
