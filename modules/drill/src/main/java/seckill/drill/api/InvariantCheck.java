package seckill.drill.api;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.helidon.dbclient.DbClient;
import redis.clients.jedis.UnifiedJedis;
import seckill.ledger.api.LedgerAudit;
import seckill.reservation.api.StockAudit;

/**
 * Verifies a sale directly in MySQL and Redis, never from HTTP answers: nothing oversold,
 * duplicated or lost. It asks the modules that own the tables and keys for their audit figures
 * (the ledger's {@link LedgerAudit}, reservation's {@link StockAudit}: plain reads of their own tables
 * and keys, never through the code paths being audited), so it names no table and no key.
 * Each violation is reported with its figures; an empty list means the sale is sound.
 */
public final class InvariantCheck {

    /** Figures and violations of one SKU. */
    public record SkuAudit(long skuId, Map<String, Long> figures, List<String> violations) {
    }

    private final LedgerAudit ledger;
    private final StockAudit redis;

    /** The audit over this database and this Redis, read on these clients (not the service's code). */
    public InvariantCheck(DbClient db, UnifiedJedis redis) {
        this(ledgerAudit(db), StockAudit.over(new StockAudit.Reads() {
            @Override
            public String get(String key) {
                return redis.get(key);
            }

            @Override
            public long hlen(String key) {
                return redis.hlen(key);
            }

            @Override
            public boolean hexists(String key, String field) {
                return redis.hexists(key, field);
            }
        }));
    }

    public InvariantCheck(LedgerAudit ledger, StockAudit redis) {
        this.ledger = ledger;
        this.redis = redis;
    }

    public List<SkuAudit> audit(long activityId) {
        List<SkuAudit> audits = new ArrayList<>();
        List<LedgerAudit.SkuStock> skus = ledger.stock(activityId);
        if (skus.isEmpty()) {
            audits.add(new SkuAudit(0, Map.of(), List.of("activity " + activityId + " has no stock rows")));
        }
        for (LedgerAudit.SkuStock sku : skus) {
            audits.add(auditSku(activityId, sku));
        }
        return audits;
    }

    public static List<String> violations(List<SkuAudit> audits) {
        List<String> all = new ArrayList<>();
        audits.forEach(a -> a.violations().forEach(v -> all.add("sku " + a.skuId() + ": " + v)));
        return all;
    }

    private SkuAudit auditSku(long activityId, LedgerAudit.SkuStock sku) {
        long skuId = sku.skuId();
        long total = sku.total();
        long available = sku.available();
        int perUserLimit = sku.perUserLimit();
        int buckets = sku.buckets();
        Map<String, Long> f = new LinkedHashMap<>();
        List<String> violations = new ArrayList<>();
        f.put("total", total);
        f.put("available", available);
        LedgerAudit.SkuFigures l = ledger.figures(activityId, skuId, perUserLimit);
        long orders = l.orders();
        long orderedUnits = l.orderedUnits();
        long buyers = l.buyers();
        long liveUnits = l.liveUnits();
        long deducted = l.deducted();
        long refilled = l.refilled();
        long failedUnits = l.failedUnits();
        f.put("orders", orders);
        f.put("orderedUnits", orderedUnits);
        f.put("buyers", buyers);
        f.put("deducted", deducted);
        f.put("refilled", refilled);
        f.put("failedUnits", failedUnits);

        if (available < 0) {
            violations.add("OVERSOLD: available is " + available);
        }
        if (deducted - refilled > total || liveUnits > total) {
            violations.add("OVERSOLD: " + liveUnits + " units held by live orders, " + (deducted - refilled)
                    + " deducted, of " + total);
        }
        if (available != total - deducted + refilled) {
            violations.add("LEDGER_MISMATCH: available " + available + " != total " + total + " - deducted " + deducted
                    + " + refilled " + refilled);
        }
        if (l.orphanDeducts() > 0) {
            violations.add("ORPHAN_DEDUCT: " + l.orphanDeducts() + " deduct log row(s) without their order");
        }
        if (l.ordersWithoutDeduct() > 0) {
            violations.add("UNLOGGED_ORDER: " + l.ordersWithoutDeduct() + " order(s) without a deduct log row");
        }
        if (buyers != orders) {
            violations.add("DUPLICATE_ORDER: " + orders + " orders for " + buyers + " distinct buyers");
        }
        if (l.buyersOverLimit() > 0) {
            violations.add("OVER_LIMIT: " + l.buyersOverLimit() + " buyer(s) hold more than " + perUserLimit + " unit(s)");
        }

        Optional<Long> remaining = redis.remaining(activityId, skuId, buckets);
        long reservations = redis.reservations(activityId, skuId, buckets);
        f.put("redisReservations", reservations);
        if (remaining.isEmpty()) {
            violations.add("REDIS_MISSING: the SKU's stock keys are gone; Redis cannot be compared");
        } else {
            long redisTaken = total - remaining.get();
            f.put("redisRemaining", remaining.get());
            f.put("redisTaken", redisTaken);
            long released = l.releasedUnits();
            f.put("released", released);
            // every unit out of Redis is an order (any status), a failure, or was given back already
            long ledgerTaken = orderedUnits + failedUnits - released;
            if (redisTaken > ledgerTaken) {
                violations.add("LOST_RESERVATION: Redis handed out " + redisTaken + " unit(s), the ledger accounts for "
                        + ledgerTaken);
            } else if (redisTaken < ledgerTaken) {
                violations.add("PHANTOM_ORDER: the ledger holds " + ledgerTaken + " unit(s), Redis only handed out "
                        + redisTaken);
            }
            if (reservations != orders + l.failedReservations() - l.releasedBuyers()) {
                violations.add("RESERVATION_COUNT: Redis recorded " + reservations + " reservation(s), the ledger has "
                        + orders + " order(s) plus failures");
            }
        }
        return new SkuAudit(skuId, f, violations);
    }

    /** The ledger's audit, read on {@code db} (the drill's own client, not the service's code). */
    public static LedgerAudit ledgerAudit(DbClient db) {
        return LedgerAudit.over((columns, sql, params) -> {
            List<String[]> all = new ArrayList<>();
            try (var rows = db.execute().query(sql, params)) {
                rows.forEach(row -> {
                    String[] values = new String[columns];
                    for (int i = 0; i < columns; i++) {
                        Object value = row.column(i + 1).get();
                        values[i] = value == null ? null : String.valueOf(value);
                    }
                    all.add(values);
                });
            }
            return all;
        });
    }

    /**
     * A bucket's key, named by the reservation module that owns it ({@link StockAudit#bucketKey}):
     * for tests that plant a fault from outside.
     */
    public static String bucketKey(long activityId, long skuId, int bucket, int buckets, String suffix) {
        return StockAudit.bucketKey(activityId, skuId, bucket, buckets, suffix);
    }
}
