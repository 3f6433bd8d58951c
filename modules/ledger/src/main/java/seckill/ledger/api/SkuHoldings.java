package seckill.ledger.api;

import java.util.List;

/**
 * What the ledger knows of one SKU's stock, enough to put a bucket back into Redis after Redis lost
 * it: the figures of each bucket that has any, every buyer holding an order, with its reservation, and
 * every refill marked applied (read after the figures, so each one's units are among them).
 */
public record SkuHoldings(List<BucketFigures> buckets, List<Holder> holders, List<Refilled> refilled) {

    public SkuHoldings(List<BucketFigures> buckets, List<Holder> holders) {
        this(buckets, holders, List.of());
    }

    /** A refill marked applied: the bucket its units went back to, its reservation and its units. */
    public record Refilled(int bucket, String reservationId, int quantity) {
    }

    /** A buyer with an order of this SKU and the reservation it came from. */
    public record Holder(long userId, String reservationId) {
    }
}
