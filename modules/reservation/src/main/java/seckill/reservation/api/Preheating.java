package seckill.reservation.api;

import java.util.List;

/**
 * Puts a SKU's stock into Redis: before its sale opens, or again from the ledger's view after Redis
 * lost its buckets. Redis failures surface as {@link ReservationUnavailable}.
 */
public interface Preheating {

    /** Loads a new SKU's stock into Redis. Meant for a SKU that has never been sold. */
    void preheat(PreheatStock command);

    /** Puts back the buckets Redis lost, from the ledger's view; one outcome per bucket, in order. */
    List<RestoreStock.Outcome> restore(RestoreStock command);
}
