package seckill.reservation;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import seckill.redis.ReplicaAcks;
import seckill.reservation.api.ReplicaStatus;
import seckill.reservation.api.Replicas;
import seckill.reservation.api.ReservationUnavailable;

/** Counts the replicas online at the master against the requirement in force; no Redis call when none is required. */
@ApplicationScoped
class CountingReplicas implements ReplicaStatus {

    private final UnifiedJedis redis;
    private final ReservationSettings settings;

    @Inject
    CountingReplicas(UnifiedJedis redis, ReservationSettings settings) {
        this.redis = redis;
        this.settings = settings;
    }

    @Override
    public Replicas replicas() {
        return count(redis, settings.acks());
    }

    static Replicas count(UnifiedJedis redis, ReplicaAcks required) {
        if (required.replicas() <= 0) {
            return new Replicas(0, 0);
        }
        try {
            return new Replicas(ReplicaAcks.online(redis), required.replicas());
        } catch (JedisException e) {
            throw new ReservationUnavailable("counting replicas failed", e);
        }
    }
}
