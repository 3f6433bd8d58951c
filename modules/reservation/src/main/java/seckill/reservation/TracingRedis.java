package seckill.reservation;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.params.XPendingParams;
import redis.clients.jedis.resps.StreamEntry;
import redis.clients.jedis.resps.StreamGroupInfo;
import redis.clients.jedis.resps.StreamPendingEntry;
import seckill.reservation.api.EventPosition;
import seckill.reservation.api.RedisTrace;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.ReservationTrail;
import seckill.reservation.api.ReservationUnavailable;
import seckill.reservation.redis.StockBuckets;

/**
 * Reads what Redis holds of one reservation, changing nothing. Every key read is one bucket's
 * (its hash tag), so each command goes to the slot that holds it, on a cluster too. Without the
 * ledger's position the entry is looked for by {@code XRANGE} over the stream around the id's mint
 * time ({@code seckill.trace.stream-window-seconds} either side, at most
 * {@code seckill.trace.stream-scan-limit} entries read), never over the whole stream.
 */
@ApplicationScoped
class TracingRedis implements ReservationTrail {

    private static final int PAGE = 500;

    private final UnifiedJedis redis;
    private final String consumerGroup;
    private final Duration window;
    private final int scanLimit;

    @Inject
    TracingRedis(UnifiedJedis redis, ReservationSettings settings, Config config) {
        this(redis, settings.consumerGroup(),
                Duration.ofSeconds(config.getOptionalValue("seckill.trace.stream-window-seconds", Long.class).orElse(60L)),
                config.getOptionalValue("seckill.trace.stream-scan-limit", Integer.class).orElse(20_000));
    }

    TracingRedis(UnifiedJedis redis, String consumerGroup, Duration window, int scanLimit) {
        this.redis = redis;
        this.consumerGroup = consumerGroup;
        this.window = window;
        this.scanLimit = scanLimit;
    }

    @Override
    public RedisTrace follow(ReservationId id, OptionalLong buyer, int buckets, Optional<EventPosition> position) {
        try {
            StockBuckets keys = StockBuckets.of(id.activityId(), id.skuId(), Math.max(1, buckets));
            int bucket = Math.min(id.bucket(), keys.count() - 1);
            String minted = redis.hget(keys.served(bucket), id.toString());
            OptionalLong mintedTo = minted == null ? OptionalLong.empty() : parse(minted);
            RedisTrace.StreamEntry entry = entry(id, keys.events(bucket), position);
            OptionalLong who = buyer.isPresent() ? buyer : mintedTo.isPresent() ? mintedTo
                    : parse(entry.fields().get("userId"));
            Optional<RedisTrace.BuyerRecord> record = Optional.empty();
            if (who.isPresent()) {
                int home = StockBuckets.homeBucket(who.getAsLong(), keys.count());
                String key = keys.buyers(home);
                String value = redis.hget(key, Long.toString(who.getAsLong()));
                record = Optional.of(new RedisTrace.BuyerRecord(key, home, Optional.ofNullable(value),
                        id.toString().equals(value)));
            }
            boolean refilled = redis.sismember(keys.refilled(bucket), id.toString());
            boolean preheated = redis.exists(keys.stock(bucket));
            return new RedisTrace(who, mintedTo, record, entry, refilled, preheated);
        } catch (JedisException e) {
            throw new ReservationUnavailable("tracing reservation " + id + " failed", e);
        }
    }

    private RedisTrace.StreamEntry entry(ReservationId id, String stream, Optional<EventPosition> position) {
        Optional<StreamGroupInfo> group = group(stream);
        Optional<String> lastDelivered = group.map(g -> g.getLastDeliveredId().toString());
        Optional<StreamEntry> found = position.isPresent()
                ? at(stream, position.get().entryId()).filter(e -> named(e, id).isPresent())
                : search(id, stream);
        Optional<String> entryId = position.map(EventPosition::entryId).or(() -> found.map(e -> e.getID().toString()));
        // this reservation's fields, also when its entry records the other reservations of its call
        Map<String, String> fields = found.flatMap(e -> named(e, id)).orElse(Map.of());
        if (group.isEmpty()) {
            return new RedisTrace.StreamEntry(stream, entryId, RedisTrace.EntryState.STREAM_MISSING, Optional.empty(),
                    0, 0, fields, lastDelivered);
        }
        if (entryId.isEmpty()) {
            return new RedisTrace.StreamEntry(stream, entryId, RedisTrace.EntryState.NOT_FOUND, Optional.empty(),
                    0, 0, fields, lastDelivered);
        }
        StreamEntryID at = new StreamEntryID(entryId.get());
        List<StreamPendingEntry> pending = redis.xpending(stream, consumerGroup,
                XPendingParams.xPendingParams(at, at, 1));
        if (!pending.isEmpty()) {
            StreamPendingEntry p = pending.getFirst();
            return new RedisTrace.StreamEntry(stream, entryId, RedisTrace.EntryState.PENDING,
                    Optional.of(p.getConsumerName()), p.getDeliveredTimes(), p.getIdleTime(), fields, lastDelivered);
        }
        boolean delivered = at.compareTo(group.get().getLastDeliveredId()) <= 0;
        return new RedisTrace.StreamEntry(stream, entryId,
                delivered ? RedisTrace.EntryState.ACKNOWLEDGED : RedisTrace.EntryState.UNDELIVERED,
                Optional.empty(), 0, 0, fields, lastDelivered);
    }

    private Optional<StreamGroupInfo> group(String stream) {
        if (!redis.exists(stream)) {
            return Optional.empty();
        }
        try {
            return redis.xinfoGroups(stream).stream().filter(g -> consumerGroup.equals(g.getName())).findFirst();
        } catch (JedisDataException gone) {
            return Optional.empty();
        }
    }

    private Optional<StreamEntry> at(String stream, String entryId) {
        StreamEntryID at = new StreamEntryID(entryId);
        return redis.xrange(stream, at, at, 1).stream().findFirst();
    }

    /** The entry naming {@code id}, read page by page from the stream around its mint time. */
    private Optional<StreamEntry> search(ReservationId id, String stream) {
        long minted = id.mintedAt().toEpochMilli();
        StreamEntryID from = new StreamEntryID(Math.max(0, minted - window.toMillis()), 0);
        StreamEntryID to = new StreamEntryID(minted + window.toMillis(), Long.MAX_VALUE);
        int read = 0;
        while (read < scanLimit) {
            List<StreamEntry> page = redis.xrange(stream, from, to, Math.min(PAGE, scanLimit - read));
            for (StreamEntry entry : page) {
                if (named(entry, id).isPresent()) {
                    return Optional.of(entry);
                }
            }
            if (page.size() < PAGE) {
                return Optional.empty();
            }
            read += page.size();
            StreamEntryID last = page.getLast().getID();
            from = new StreamEntryID(last.getTime(), last.getSequence() + 1);
        }
        return Optional.empty();
    }

    private static OptionalLong parse(String number) {
        if (number == null) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(number));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * The fields by name of reservation {@code id} in the entry, whichever shape it was written in (a
     * packed event is split, a call's entry searched), if the entry records it.
     */
    private static Optional<Map<String, String>> named(StreamEntry entry, ReservationId id) {
        return seckill.reservation.api.ReservationEventFields.namedFor(entry.getFields(), id.toString());
    }
}
