package seckill.ordering.api;

import java.util.List;

/**
 * What the ledger knows of one SKU's stock, enough to put a bucket back into Redis after Redis lost
 * it: per bucket the units ordered, failed and refilled and the position of the last event the
 * ledger recorded from that bucket's stream; and every buyer holding an order, with its reservation.
 */
public record SkuHoldings(List<BucketFigures> buckets, List<LastEvent> lastEvents, List<Holder> holders) {

    /** The position ({@code EventPosition.ordinal()}) of the last event recorded from a bucket. */
    public record LastEvent(int bucket, long position) {
    }

    /** A buyer with an order of this SKU and the reservation it came from. */
    public record Holder(long userId, String reservationId) {
    }
}
