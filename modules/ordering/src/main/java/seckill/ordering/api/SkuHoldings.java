package seckill.ordering.api;

import java.util.List;

/**
 * What the ledger knows of one SKU's stock, enough to put a bucket back into Redis after Redis lost
 * it: the figures of each bucket that has any, and every buyer holding an order, with its reservation.
 */
public record SkuHoldings(List<BucketFigures> buckets, List<Holder> holders) {

    /** A buyer with an order of this SKU and the reservation it came from. */
    public record Holder(long userId, String reservationId) {
    }
}
