package seckill.settlement.api;

import java.util.List;
import java.util.Optional;

/**
 * The settlement module's door for reconciliation: run it now for an activity, read the latest
 * stored results, and tell whether any live SKU is currently in an alarming state.
 */
public interface Reconciliation {

    List<SkuReconciliation> reconcile(long activityId);

    List<SkuReconciliation> latest(long activityId);

    /** The first alarming result among the latest of live activities, if any. */
    Optional<SkuReconciliation> alarm();
}
