package seckill.reservation.redis;

import java.time.Instant;
import java.util.List;

import redis.clients.jedis.UnifiedJedis;
import seckill.redis.RedisScript;
import seckill.redis.ReplicaAcks;
import seckill.reservation.api.BuyerWindow;
import seckill.reservation.api.ReservationEventFields;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.ReservationOutcome;

/**
 * Runs {@code reserve.lua}: the buyer's rate-limit window, dedupe, stock check, decrement and XADD
 * in one atomic step on the bucket's slot. The reservation id is chosen before the call so the script can record it; when
 * the buyer already had one, the script answers with the old id instead, and when the bucket gave a unit
 * under that id already, to anyone, it refuses it ({@link ReservationOutcome.IdTaken}).
 */
public final class ReservationScript {

    // both behind buyer_window.lua: the input checks and the buyer's window are written once
    private final RedisScript script = RedisScript.read("reserve.lua",
            ReservationScript.class.getResourceAsStream("buyer_window.lua"),
            ReservationScript.class.getResourceAsStream("reserve.lua"));
    private final RedisScript many = RedisScript.read("reserve_many.lua",
            ReservationScript.class.getResourceAsStream("buyer_window.lua"),
            ReservationScript.class.getResourceAsStream("reserve_many.lua"));

    /** One buyer's part of a coalesced call. */
    public record Claim(ReservationId candidate, long userId, int quantity, String requestId, BuyerWindow window) {
    }

    /**
     * Judges several buyers of the same bucket in one script call, in list order; the outcomes are
     * those of one {@link #reserve} call per buyer in that order. The first claim's window is every
     * claim's (the calls coalesced together were judged under one setting). The call's reservations are
     * recorded in one stream entry.
     */
    public List<ReservationOutcome> reserveMany(UnifiedJedis redis, StockBuckets buckets, List<Claim> claims,
                                                Instant reservedAt, ReplicaAcks acks) {
        return reserveMany(redis, buckets, claims, reservedAt, acks, true, true);
    }

    /**
     * As {@link #reserveMany(UnifiedJedis, StockBuckets, List, Instant, ReplicaAcks)}; {@code packedEvents}
     * false records each event in named fields instead of one packed field, for consumers from before
     * issue #35's second step (a rolling upgrade: {@code seckill.reservation.packed-events}); one stream
     * entry per reservation either way.
     */
    public List<ReservationOutcome> reserveMany(UnifiedJedis redis, StockBuckets buckets, List<Claim> claims,
                                                Instant reservedAt, ReplicaAcks acks, boolean packedEvents) {
        return reserveMany(redis, buckets, claims, reservedAt, acks, packedEvents, false);
    }

    /**
     * As {@link #reserveMany(UnifiedJedis, StockBuckets, List, Instant, ReplicaAcks, boolean)}; with
     * {@code oneEntryPerCall} (and packed events) the call's reservations are recorded in one stream
     * entry, field {@link ReservationEventFields#EVENTS} (issue #35's third step); false records one entry per
     * reservation, for consumers from before it ({@code seckill.reservation.one-entry-per-call}). A call
     * with a request id holding a newline (the separator; the HTTP edge admits none) is recorded one
     * entry per reservation all the same.
     */
    public List<ReservationOutcome> reserveMany(UnifiedJedis redis, StockBuckets buckets, List<Claim> claims,
                                                Instant reservedAt, ReplicaAcks acks, boolean packedEvents,
                                                boolean oneEntryPerCall) {
        ReservationId first = claims.getFirst().candidate();
        BuyerWindow window = claims.getFirst().window();
        List<String> keys = new java.util.ArrayList<>(buckets.bucketKeys(first.bucket()));
        keys.add(buckets.served(first.bucket()));
        if (window.judged()) {
            addWindows(keys, buckets, first.bucket(), window, reservedAt);
        }
        List<String> args = new java.util.ArrayList<>(7 + claims.size() * 3);
        args.add(Integer.toString(claims.size()));
        args.add(Long.toString(reservedAt.toEpochMilli()));
        args.add(Long.toString(first.activityId()));
        args.add(Long.toString(first.skuId()));
        args.add(Long.toString(window.attempts()));
        args.add(Long.toString(window.millis()));
        args.add(!packedEvents ? "named" : oneEntryPerCall && claims.stream().noneMatch(
                c -> c.requestId().indexOf('\n') >= 0) ? ReservationEventFields.EVENTS : ReservationEventFields.EVENT);
        long at = reservedAt.toEpochMilli();
        for (Claim claim : claims) {
            args.add(Long.toString(claim.userId()));
            args.add(claim.candidate().toString());
            // the event the script records when it reserves, built from the same claim as the
            // arguments it judges (one stream field instead of five: issue #35), or the request id
            args.add(packedEvents ? ReservationEventFields.packed(claim.candidate(), claim.userId(),
                    claim.quantity(), at, claim.requestId()) : claim.requestId());
        }
        // a quantity other than 1 after the buyers', with the buyer's place in the call: a buyer not
        // listed takes 1, one argument less per buyer (issue #35's sixth step)
        int place = 0;
        for (Claim claim : claims) {
            place++;
            if (claim.quantity() != 1) {
                args.add(Integer.toString(place));
                args.add(Integer.toString(claim.quantity()));
            }
        }
        // one WAIT serves the whole coalesced call
        List<?> reply = (List<?>) many.runAcknowledged(redis, keys, args, acks);
        // per buyer: the units left (a number) when reserved under the claim's own id, else a verdict
        // followed by as many values as it has (reserve_many.lua: issue #35's fourth step)
        List<ReservationOutcome> outcomes = new java.util.ArrayList<>(claims.size());
        int read = 0;
        for (Claim claim : claims) {
            Object answer = reply.get(read++);
            if (answer instanceof Long remaining) {
                outcomes.add(new ReservationOutcome.Reserved(claim.candidate(), remaining));
                continue;
            }
            String verdict = RedisScript.text(answer);
            int values = switch (verdict) {
                case "THROTTLED" -> 2;
                case "ALREADY_RESERVED", "INSUFFICIENT" -> 1;
                default -> 0;
            };
            String value = values > 0 ? RedisScript.text(reply.get(read)) : "";
            String remaining = values > 1 ? RedisScript.text(reply.get(read + 1)) : "0";
            read += values;
            try {
                outcomes.add(outcome(verdict, value, remaining, claim.candidate()));
            } catch (RuntimeException unreadable) {
                // one buyer's unreadable record must not fail the other buyers of the call
                outcomes.add(new ReservationOutcome.Unreadable(verdict + " " + value));
            }
        }
        if (read != reply.size()) {
            throw new IllegalStateException("reserve_many.lua answered " + reply.size() + " values for "
                    + claims.size() + " buyers, " + read + " read");
        }
        return outcomes;
    }

    public ReservationOutcome reserve(UnifiedJedis redis, StockBuckets buckets, ReservationId candidate, long userId,
                                      int quantity, String requestId, Instant reservedAt, ReplicaAcks acks,
                                      BuyerWindow window) {
        List<String> keys = new java.util.ArrayList<>(buckets.bucketKeys(candidate.bucket()));
        keys.add(buckets.served(candidate.bucket()));
        List<String> args = new java.util.ArrayList<>(List.of(Long.toString(userId), Integer.toString(quantity),
                candidate.toString(), requestId, Long.toString(reservedAt.toEpochMilli()),
                Long.toString(candidate.activityId()), Long.toString(candidate.skuId())));
        if (window.judged()) {
            addWindows(keys, buckets, candidate.bucket(), window, reservedAt);
            args.add(Long.toString(window.attempts()));
            args.add(Long.toString(window.millis()));
        }
        List<?> reply = (List<?>) script.runAcknowledged(redis, keys, args, acks);
        return outcome(RedisScript.text(reply.get(0)), RedisScript.text(reply.get(1)),
                reply.size() > 2 ? RedisScript.text(reply.get(2)) : "0", candidate);
    }

    /** The window hashes of the period before the call's and of the call's: every window open at its moment. */
    private static void addWindows(List<String> keys, StockBuckets buckets, int bucket, BuyerWindow window,
                                   Instant reservedAt) {
        long period = Math.floorDiv(reservedAt.toEpochMilli(), window.millis());
        keys.add(buckets.windows(bucket, window.millis(), period - 1));
        keys.add(buckets.windows(bucket, window.millis(), period));
    }

    /** The buyer's record: their reservation id. */
    private static ReservationId held(String value) {
        return ReservationId.parse(value)
                .orElseThrow(() -> new IllegalStateException("malformed reservation id in Redis: " + value));
    }

    private static ReservationOutcome outcome(String verdict, String value, String remaining, ReservationId candidate) {
        return switch (verdict) {
            case "RESERVED" -> new ReservationOutcome.Reserved(candidate, Long.parseLong(remaining));
            case "ALREADY_RESERVED" -> value.startsWith(BucketScripts.PENDING) ? new ReservationOutcome.InProgress()
                    : new ReservationOutcome.AlreadyReserved(held(value));
            case "SOLD_OUT" -> new ReservationOutcome.SoldOut();
            case "INSUFFICIENT" -> new ReservationOutcome.InsufficientStock(Long.parseLong(value));
            case "NOT_PREHEATED" -> new ReservationOutcome.NotPreheated();
            case "ID_TAKEN" -> new ReservationOutcome.IdTaken(candidate);
            case "THROTTLED" -> new ReservationOutcome.Throttled(Long.parseLong(value),
                    Math.max(0, Long.parseLong(remaining)));
            default -> throw new IllegalStateException("unexpected reservation script verdict " + verdict);
        };
    }
}
