package seckill.ledger.api;

/**
 * What the launch ({@code LaunchingActivities}) asks of the ledger to put a SKU's buckets back into
 * Redis after Redis lost them.
 */
public interface LedgerHoldings {

    /** The ledger's view of a SKU's stock and holders. */
    SkuHoldings holdings(long activityId, long skuId);
}
