package seckill.reservation.api;

import java.util.List;

import seckill.reservation.redis.NodeLease;
import seckill.reservation.redis.StockBuckets;

/**
 * The Redis keys of this module that an operator's mistake, an eviction or a failover to a lagging
 * replica can lose, named here so that a drill deleting them from outside (issue #30's chaos drill,
 * {@code KEY_LOSS}) never spells this module's key layout itself. What the service does about each
 * loss: a bucket's keys lost whole answer {@code NOT_READY} until an operator preheats the activity
 * again ({@code POST /api/v1/admin/activities/{id}/preheat}, from the ledger); the stream registry is
 * written again by the next reservation and by reconciliation; lost node id leases are leased again,
 * and a reservation id minted twice is refused by the bucket's minted ids.
 */
public final class KeysAtRisk {

    private KeysAtRisk() {
    }

    /**
     * One bucket's keys (all under one hash tag, so one script can judge and delete them together):
     * its event stream, and every key of the bucket with the stream among them.
     */
    public record Bucket(String stream, List<String> keys) {
    }

    /** Every key of one bucket of a SKU split into {@code buckets} buckets. */
    public static Bucket bucket(long activityId, long skuId, int bucket, int buckets) {
        StockBuckets b = StockBuckets.of(activityId, skuId, buckets);
        return new Bucket(b.events(bucket), List.of(b.stock(bucket), b.buyers(bucket), b.events(bucket),
                b.refilled(bucket), b.refilledUnits(bucket), b.served(bucket), b.preheatMarker(bucket),
                b.deadLetters(bucket), b.lost(bucket)));
    }

    /** The registry of live event streams the ordering workers read. */
    public static String streamRegistry() {
        return StockBuckets.STREAM_REGISTRY;
    }

    /** {@code SCAN} patterns of the node id leases, and the key of their start counter. */
    public static List<String> nodeLeases() {
        return NodeLease.atRisk();
    }
}
