package seckill.settlement.api;

import seckill.redis.World;

import java.util.List;
import java.util.Optional;

/**
 * The settlement module's door for reconciliation: run it now for an activity, read the latest
 * stored results, and tell whether any live SKU is currently in an alarming state.
 */
public interface Reconciliation {

    List<SkuReconciliation> reconcile(long activityId);

    List<SkuReconciliation> latest(long activityId);

    /** The first alarming result among the latest of live real activities, if any (what readiness asks). */
    default Optional<SkuReconciliation> alarm() {
        return alarm(World.REAL);
    }

    /**
     * {@link #alarm()} among {@code world}'s live activities (docs/rehearsal.md: each world is reconciled apart; empty
     * for {@code REHEARSAL} without a shadow ledger).
     */
    Optional<SkuReconciliation> alarm(World world);
}
