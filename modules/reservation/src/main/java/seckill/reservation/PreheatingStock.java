package seckill.reservation;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import seckill.reservation.api.PreheatStock;
import seckill.reservation.api.Preheating;
import seckill.reservation.api.ReservationUnavailable;
import seckill.reservation.api.RestoreStock;
import seckill.reservation.redis.PreheatScript;
import seckill.reservation.redis.RestoreScript;
import seckill.reservation.redis.StockBuckets;

/**
 * Puts a SKU's stock into Redis: split over its buckets before the sale opens, or, for the buckets
 * Redis lost, again from the ledger's figures with the buyers who hold orders. Each call carries a
 * sequence number minted under this instance's node id, so a client's retry of one script call is
 * recognised and another instance's call is not.
 */
@ApplicationScoped
class PreheatingStock implements Preheating {

    private final PreheatScript preheatScript = new PreheatScript();
    private final RestoreScript restoreScript = new RestoreScript();

    private final UnifiedJedis redis;
    private final LeasingNodeIds nodeIds;
    private final String consumerGroup;

    @Inject
    PreheatingStock(UnifiedJedis redis, ReservationSettings settings, LeasingNodeIds nodeIds) {
        this.redis = redis;
        this.nodeIds = nodeIds;
        this.consumerGroup = settings.consumerGroup();
    }

    @Override
    public void preheat(PreheatStock command) {
        StockBuckets keys = StockBuckets.of(command.activityId(), command.skuId(), command.buckets());
        // unique across instances; the same for a client's retry of one script call
        long preheatId = nodeIds.nextSequence();
        try {
            for (int bucket = 0; bucket < command.buckets(); bucket++) {
                preheatScript.preheat(redis, keys, bucket, PreheatStock.share(command.stock(), command.buckets(), bucket),
                        consumerGroup, command.keysExpireAt(), preheatId);
            }
        } catch (JedisException e) {
            throw new ReservationUnavailable("preheat failed", e);
        }
    }

    @Override
    public List<RestoreStock.Outcome> restore(RestoreStock command) {
        StockBuckets keys = StockBuckets.of(command.activityId(), command.skuId(), command.buckets());
        long restoreId = nodeIds.nextSequence();
        List<RestoreStock.Outcome> outcomes = new ArrayList<>(command.buckets());
        try {
            for (int bucket = 0; bucket < command.buckets(); bucket++) {
                int b = bucket;
                RestoreStock.BucketLedger ledger = command.ledger().stream().filter(l -> l.bucket() == b).findFirst()
                        .orElse(new RestoreStock.BucketLedger(b, 0, 0, 0));
                long remaining = PreheatStock.share(command.stock(), command.buckets(), b) - ledger.takenUnits()
                        + ledger.refilledUnits();
                // a buyer's record lives in their home bucket, wherever their unit came from
                List<RestoreStock.Holder> atHome = command.holders().stream()
                        .filter(h -> StockBuckets.homeBucket(h.userId(), command.buckets()) == b).toList();
                outcomes.add(restoreScript.restore(redis, keys, b, remaining, ledger.refilledUnits(), ledger.refilled(),
                        ledger.lastEvent(), atHome, consumerGroup, command.keysExpireAt(), restoreId));
            }
        } catch (JedisException e) {
            throw new ReservationUnavailable("restore failed", e);
        }
        return outcomes;
    }
}
