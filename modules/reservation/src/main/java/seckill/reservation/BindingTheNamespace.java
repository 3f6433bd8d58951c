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

    /** The key holding the ledger one world's namespace belongs to ({@link #KEY} for the real one). */
    static String key(seckill.redis.World world) {
        return world.key("ledger");
    }

    private final UnifiedJedis redis;

    @Inject
    BindingTheNamespace(UnifiedJedis redis) {
        this.redis = redis;
    }

    @Override
    public String bindTo(seckill.redis.World world, String ledgerId) {
        String key = key(world);
        try {
            // two commands, not SET NX GET (Redis 7 only; the embedded dev Redis is 6.2): the value,
            // once set, never changes, so the GET reads whichever SETNX won
            redis.setnx(key, ledgerId);
            String owner = redis.get(key);
            return owner != null ? owner : bindTo(world, ledgerId);
        } catch (JedisException e) {
            throw new ReservationUnavailable("the reservation store did not say which ledger it belongs to", e);
        }
    }

    @Override
    public java.util.Optional<String> owner(seckill.redis.World world) {
        try {
            return java.util.Optional.ofNullable(redis.get(key(world)));
        } catch (JedisException e) {
            throw new ReservationUnavailable("the reservation store did not say which ledger it belongs to", e);
        }
    }

    @Override
    public boolean holdsEvents(seckill.redis.World world) {
        try {
            return redis.exists(seckill.reservation.redis.StockBuckets.streamRegistry(world));
        } catch (JedisException e) {
            throw new ReservationUnavailable("the reservation store did not say what it holds", e);
        }
    }
}
