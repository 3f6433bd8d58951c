package seckill.reservation.redis;

import java.time.Instant;
import java.util.List;

import redis.clients.jedis.UnifiedJedis;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.ReservationOutcome;

/**
 * Runs {@code reserve.lua}: dedupe, stock check, decrement and XADD in one atomic step on the
 * bucket's slot. The reservation id is chosen before the call so the script can record it; when
 * the buyer already had one, the script answers with the old id instead.
 */
public final class ReservationScript {

    private final RedisScript script = RedisScript.fromResource(ReservationScript.class, "reserve.lua");

    public ReservationOutcome reserve(UnifiedJedis redis, ReservationId candidate, long userId, int quantity,
                                      String requestId, Instant reservedAt) {
        List<String> keys = StockBuckets.bucketKeys(candidate.activityId(), candidate.skuId(), candidate.bucket());
        List<String> args = List.of(Long.toString(userId), Integer.toString(quantity), candidate.toString(), requestId,
                Long.toString(reservedAt.toEpochMilli()), Long.toString(candidate.activityId()),
                Long.toString(candidate.skuId()));
        List<?> reply = (List<?>) script.run(redis, keys, args);
        String verdict = RedisScript.text(reply.get(0));
        String value = RedisScript.text(reply.get(1));
        return switch (verdict) {
            case "RESERVED" -> new ReservationOutcome.Reserved(candidate, Long.parseLong(RedisScript.text(reply.get(2))));
            case "ALREADY_RESERVED" -> new ReservationOutcome.AlreadyReserved(ReservationId.parse(value)
                    .orElseThrow(() -> new IllegalStateException("malformed reservation id in Redis: " + value)));
            case "SOLD_OUT" -> new ReservationOutcome.SoldOut();
            case "INSUFFICIENT" -> new ReservationOutcome.InsufficientStock(Long.parseLong(value));
            case "NOT_PREHEATED" -> new ReservationOutcome.NotPreheated();
            default -> throw new IllegalStateException("unexpected reservation script verdict " + verdict);
        };
    }
}
