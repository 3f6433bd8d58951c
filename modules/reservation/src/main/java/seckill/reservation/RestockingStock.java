package seckill.reservation;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import seckill.redis.ReplicaAcks;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.ReservationUnavailable;
import seckill.reservation.api.Restock;
import seckill.reservation.api.RestockOutcome;
import seckill.reservation.api.Restocking;
import seckill.reservation.redis.BucketScripts;
import seckill.reservation.redis.RefillScript;
import seckill.reservation.redis.StockBuckets;
import seckill.reservation.rules.DonorBuckets;

/**
 * Gives a reservation's units back to the bucket they came from, once per reservation, under the
 * reservations' replica acknowledgement; with the buyer's release, their home record is cleared too
 * (in the same call when it lives in the same bucket, on its own otherwise).
 */
@ApplicationScoped
class RestockingStock implements Restocking {

    private final RefillScript refillScript = new RefillScript();
    private final BucketScripts bucketScripts = new BucketScripts();

    private final UnifiedJedis redis;
    private final ReservationSettings settings;

    @Inject
    RestockingStock(UnifiedJedis redis, ReservationSettings settings) {
        this.redis = redis;
        this.settings = settings;
    }

    @Override
    public RestockOutcome restock(Restock command) {
        ReservationId id = command.reservation();
        int home = StockBuckets.homeBucket(command.userId(), Math.max(1, command.buckets()));
        StockBuckets keys = StockBuckets.of(id.activityId(), id.skuId(), Math.max(1, command.buckets()));
        // the hot switch read once per refill: the refill and its buyer's release wait for the same replicas
        ReplicaAcks acks = settings.acks();
        try {
            boolean sameBucket = home == id.bucket();
            // under the reservations' acknowledgement rule: a refill only this master holds is not applied yet
            RestockOutcome outcome = refillScript.refill(redis, keys, id, command.userId(), command.quantity(),
                    command.releaseBuyer() && sameBucket, acks);
            if (command.releaseBuyer() && !sameBucket && outcome != RestockOutcome.KEYS_GONE) {
                // the buyer's record lives in their home bucket, another slot: released on its own, idempotently
                if (!bucketScripts.settle(redis, keys, home, command.userId(), id.toString(), "", acks)) {
                    // the take's answer was lost, so the claim still points at no id; this is its unit
                    // (same sequence), so the claim is done with: the buyer may buy again
                    String held = redis.hget(keys.buyers(home), Long.toString(command.userId()));
                    if (DonorBuckets.pendingSequence(held).filter(s -> s == id.sequence()).isPresent()) {
                        bucketScripts.settle(redis, keys, home, command.userId(), held, "", acks);
                    }
                }
            }
            return outcome;
        } catch (ReplicaAcks.Missing e) {
            // applied on this master, not yet safe from its loss: the caller keeps the refill pending and repeats it
            throw new ReservationUnavailable("refill not acknowledged by a replica", e, true);
        } catch (JedisException | IllegalStateException e) {
            throw new ReservationUnavailable("restock failed", e);
        }
    }
}
