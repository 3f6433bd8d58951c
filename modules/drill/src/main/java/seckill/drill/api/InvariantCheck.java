package seckill.drill.api;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbRow;
import redis.clients.jedis.UnifiedJedis;
import seckill.redis.SlotSpread;

/**
 * Verifies a sale directly in MySQL and Redis, never from HTTP answers: nothing oversold,
 * duplicated or lost. It reads the tables and keys the modules own, read-only, as an auditor would.
 * Each violation is reported with its figures; an empty list means the sale is sound.
 */
public final class InvariantCheck {

    /** Figures and violations of one SKU. */
    public record SkuAudit(long skuId, Map<String, Long> figures, List<String> violations) {
    }

    private final DbClient db;
    private final UnifiedJedis redis;

    public InvariantCheck(DbClient db, UnifiedJedis redis) {
        this.db = db;
        this.redis = redis;
    }

    public List<SkuAudit> audit(long activityId) {
        List<SkuAudit> audits = new ArrayList<>();
        List<long[]> skus = new ArrayList<>();
        try (var rows = db.execute().query(
                "SELECT sku_id, total, available, per_user_limit, buckets FROM seckill_stock WHERE activity_id = ?",
                activityId)) {
            rows.forEach(r -> skus.add(new long[] {num(r, "sku_id"), num(r, "total"), num(r, "available"),
                    num(r, "per_user_limit"), num(r, "buckets")}));
        }
        if (skus.isEmpty()) {
            audits.add(new SkuAudit(0, Map.of(), List.of("activity " + activityId + " has no stock rows")));
        }
        for (long[] sku : skus) {
            audits.add(auditSku(activityId, sku[0], sku[1], sku[2], (int) sku[3], (int) sku[4]));
        }
        return audits;
    }

    public static List<String> violations(List<SkuAudit> audits) {
        List<String> all = new ArrayList<>();
        audits.forEach(a -> a.violations().forEach(v -> all.add("sku " + a.skuId() + ": " + v)));
        return all;
    }

    private SkuAudit auditSku(long activityId, long skuId, long total, long available, int perUserLimit, int buckets) {
        Map<String, Long> f = new LinkedHashMap<>();
        List<String> violations = new ArrayList<>();
        f.put("total", total);
        f.put("available", available);
        long orders = scalar("SELECT COUNT(*) FROM seckill_order WHERE activity_id = ? AND sku_id = ?", activityId, skuId);
        long orderedUnits = scalar("SELECT COALESCE(SUM(quantity), 0) FROM seckill_order WHERE activity_id = ? AND sku_id = ?",
                activityId, skuId);
        long buyers = scalar("SELECT COUNT(DISTINCT user_id) FROM seckill_order WHERE activity_id = ? AND sku_id = ?",
                activityId, skuId);
        // an expired order (status 2) gave its unit back, which may be sold again: only live orders hold stock
        long liveUnits = scalar("""
                SELECT COALESCE(SUM(quantity), 0) FROM seckill_order
                WHERE activity_id = ? AND sku_id = ? AND status <> 2""", activityId, skuId);
        long deducted = scalar("""
                SELECT COALESCE(SUM(quantity), 0) FROM seckill_stock_log
                WHERE activity_id = ? AND sku_id = ? AND change_type = 1""", activityId, skuId);
        long refilled = scalar("""
                SELECT COALESCE(SUM(quantity), 0) FROM seckill_stock_log
                WHERE activity_id = ? AND sku_id = ? AND change_type = 2""", activityId, skuId);
        long failedUnits = scalar("""
                SELECT COALESCE(SUM(quantity), 0) FROM seckill_reservation_failure WHERE activity_id = ? AND sku_id = ?""",
                activityId, skuId);
        long orphanLogs = scalar("""
                SELECT COUNT(*) FROM seckill_stock_log l LEFT JOIN seckill_order o ON o.reservation_id = l.biz_id
                WHERE l.activity_id = ? AND l.sku_id = ? AND l.change_type = 1 AND o.id IS NULL""", activityId, skuId);
        long ordersWithoutLog = scalar("""
                SELECT COUNT(*) FROM seckill_order o LEFT JOIN seckill_stock_log l
                  ON l.biz_id = o.reservation_id AND l.change_type = 1
                WHERE o.activity_id = ? AND o.sku_id = ? AND l.id IS NULL""", activityId, skuId);
        long overLimitBuyers = scalar("""
                SELECT COUNT(*) FROM (SELECT user_id FROM seckill_order WHERE activity_id = ? AND sku_id = ?
                                      GROUP BY user_id HAVING SUM(quantity) > ?) t""", activityId, skuId, perUserLimit);
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
        if (orphanLogs > 0) {
            violations.add("ORPHAN_DEDUCT: " + orphanLogs + " deduct log row(s) without their order");
        }
        if (ordersWithoutLog > 0) {
            violations.add("UNLOGGED_ORDER: " + ordersWithoutLog + " order(s) without a deduct log row");
        }
        if (buyers != orders) {
            violations.add("DUPLICATE_ORDER: " + orders + " orders for " + buyers + " distinct buyers");
        }
        if (overLimitBuyers > 0) {
            violations.add("OVER_LIMIT: " + overLimitBuyers + " buyer(s) hold more than " + perUserLimit + " unit(s)");
        }

        Optional<Long> remaining = redisRemaining(activityId, skuId, buckets);
        long reservations = redisReservations(activityId, skuId, buckets);
        f.put("redisReservations", reservations);
        if (remaining.isEmpty()) {
            violations.add("REDIS_MISSING: the SKU's stock keys are gone; Redis cannot be compared");
        } else {
            long redisTaken = total - remaining.get();
            f.put("redisRemaining", remaining.get());
            f.put("redisTaken", redisTaken);
            long released = scalar("""
                    SELECT COALESCE(SUM(quantity), 0) FROM stock_sync_outbox
                    WHERE activity_id = ? AND sku_id = ? AND status = 1""", activityId, skuId);
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
            long releasedBuyers = scalar("""
                    SELECT COUNT(*) FROM stock_sync_outbox
                    WHERE activity_id = ? AND sku_id = ? AND status = 1 AND release_buyer = 1""", activityId, skuId);
            if (reservations != orders + scalar("""
                    SELECT COUNT(*) FROM seckill_reservation_failure WHERE activity_id = ? AND sku_id = ?""",
                    activityId, skuId) - releasedBuyers) {
                violations.add("RESERVATION_COUNT: Redis recorded " + reservations + " reservation(s), the ledger has "
                        + orders + " order(s) plus failures");
            }
        }
        return new SkuAudit(skuId, f, violations);
    }

    private Optional<Long> redisRemaining(long activityId, long skuId, int buckets) {
        long sum = 0;
        boolean any = false;
        for (int b = 0; b < buckets; b++) {
            String value = redis.get(bucketKey(activityId, skuId, b, buckets, "stock"));
            if (value != null) {
                any = true;
                sum += Long.parseLong(value);
            }
        }
        return any ? Optional.of(sum) : Optional.empty();
    }

    private long redisReservations(long activityId, long skuId, int buckets) {
        long sum = 0;
        for (int b = 0; b < buckets; b++) {
            String key = bucketKey(activityId, skuId, b, buckets, "buyers");
            // minus the placeholder field that gives the hash its expiry
            sum += Math.max(0, redis.hlen(key) - (redis.hexists(key, "_") ? 1 : 0));
        }
        return sum;
    }

    /**
     * The checker reads the reservation module's keys on purpose (it must not trust the code it
     * audits), so it spells the layout out: the bucket's tag spread over slot ranges, then the key.
     */
    public static String bucketKey(long activityId, long skuId, int bucket, int buckets, String suffix) {
        return "sk:{" + SlotSpread.tag("a" + activityId + ":s" + skuId + ":b" + bucket, bucket, buckets) + "}:" + suffix;
    }

    private long scalar(String sql, Object... params) {
        Optional<DbRow> row = db.execute().get(sql, params);
        Object value = row.map(r -> r.column(1).get()).orElse(null);
        return value == null ? 0 : ((Number) value).longValue();
    }

    private static long num(DbRow row, String column) {
        return ((Number) row.column(column).get()).longValue();
    }
}
