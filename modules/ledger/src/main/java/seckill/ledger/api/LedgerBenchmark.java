package seckill.ledger.api;

import java.time.Instant;

/**
 * What the settlement benchmark asks of the ledger, so it names no table: how far the workers have
 * got (one primary-key read of a SKU's guard row, cheap enough to poll while they are measured), how
 * many orders an activity holds, and the database's own ceiling for the rows the workers write.
 */
public interface LedgerBenchmark {

    /** Units of the SKU still on the ledger's shelf. */
    long available(long activityId, long skuId);

    /** Orders the activity holds, whatever their status (counts rows: not for polling). */
    long orders(long activityId);

    /**
     * Writes, in one transaction and with the workers' own statements (multi-row inserts of the orders
     * and the deduct log, then the guard's conditional update), one-unit orders of the SKU for the
     * buyers {@code firstUser + from} to {@code firstUser + to - 1} (bucket 0, reservation sequences
     * numbered from the activity id): no stream, no Redis and no checks. Each buyer at most once per
     * activity, and {@code to - from} below 10,000,000.
     */
    void writeDirectly(long activityId, long skuId, long firstUser, int from, int to, Instant now);
}
