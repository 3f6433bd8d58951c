package seckill.reservation;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import seckill.reservation.api.NamespaceBinding;
import seckill.reservation.api.ReservationUnavailable;

/**
 * Keeps the id of the ledger this Redis namespace belongs to in {@code sk:ledger}, a key without a
 * TTL (so no {@code volatile-*} eviction takes it). Written only when absent; who may write it again
 * after it was lost is the ledger module's rule (only a ledger that bound a namespace before, or
 * any ledger while the namespace holds no sale's data).
 */
@ApplicationScoped
class BindingTheNamespace implements NamespaceBinding {

    static final String KEY = "sk:ledger";

    private final UnifiedJedis redis;

    @Inject
    BindingTheNamespace(UnifiedJedis redis) {
        this.redis = redis;
    }

    @Override
    public String bindTo(String ledgerId) {
        try {
            // two commands, not SET NX GET (Redis 7 only; the embedded dev Redis is 6.2): the value,
            // once set, never changes, so the GET reads whichever SETNX won
            redis.setnx(KEY, ledgerId);
            String owner = redis.get(KEY);
            return owner != null ? owner : bindTo(ledgerId);
        } catch (JedisException e) {
            throw new ReservationUnavailable("the reservation store did not say which ledger it belongs to", e);
        }
    }

    @Override
    public java.util.Optional<String> owner() {
        try {
            return java.util.Optional.ofNullable(redis.get(KEY));
        } catch (JedisException e) {
            throw new ReservationUnavailable("the reservation store did not say which ledger it belongs to", e);
        }
    }

    @Override
    public boolean holdsEvents() {
        try {
            return redis.exists(seckill.reservation.redis.StockBuckets.STREAM_REGISTRY);
        } catch (JedisException e) {
            throw new ReservationUnavailable("the reservation store did not say what it holds", e);
        }
    }
}
