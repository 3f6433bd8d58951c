package seckill.reservation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.XAutoClaimParams;
import redis.clients.jedis.params.XClaimParams;
import redis.clients.jedis.params.XAddParams;
import redis.clients.jedis.params.XPendingParams;
import redis.clients.jedis.params.XReadGroupParams;
import redis.clients.jedis.resps.StreamEntry;
import redis.clients.jedis.resps.StreamGroupInfo;
import redis.clients.jedis.resps.StreamPendingEntry;
import seckill.reservation.api.BucketSnapshot;
import seckill.reservation.api.EventPosition;
import seckill.redis.RedisScript;
import seckill.redis.ReplicaAcks;
import seckill.reservation.api.ReservationEvent;
import seckill.reservation.api.ReservationEventFields;
import seckill.reservation.api.ReservationEvents;
import seckill.reservation.api.ReservationId;
import seckill.reservation.api.UnreplicatedEvents;
import seckill.reservation.redis.StockBuckets;
import seckill.reservation.redis.SnapshotScript;
import seckill.reservation.redis.TrimScript;

/**
 * Reads reservation events through the consumer group, one stream per bucket. Reading is
 * per stream (never a multi-key XREADGROUP), so it works unchanged when buckets live on different
 * cluster shards. With replicas required ({@code seckill.redis.min-replica-acks}) events are handed
 * out only once the replicas hold them ({@link #replicated}).
 */
@ApplicationScoped
class StreamedReservations implements ReservationEvents {

    private static final java.util.logging.Logger LOG =
            java.util.logging.Logger.getLogger(StreamedReservations.class.getName());

    private final UnifiedJedis redis;
    private final java.time.Clock clock;
    private final String consumerGroup;
    private final ReservationSettings settings;

    @Inject
    StreamedReservations(UnifiedJedis redis,
                         java.time.Clock clock,
                         ReservationSettings settings) {
        this.redis = redis;
        this.clock = clock;
        this.consumerGroup = settings.consumerGroup();
        this.settings = settings;
    }

    private final TrimScript trimScript = new TrimScript();
    private final SnapshotScript snapshotScript = new SnapshotScript();

    @Override
    public List<String> activeStreams(seckill.redis.World world) {
        return redis.zrangeByScore(StockBuckets.streamRegistry(world), clock.millis(), Double.POSITIVE_INFINITY);
    }

    @Override
    public List<String> registerStreams(seckill.redis.World world, List<String> streams) {
        for (String stream : streams) {
            if (!stream.startsWith(world.prefix())) {
                throw new IllegalArgumentException(stream + " is not a stream of the " + world + " world's registry");
            }
        }
        String registry = StockBuckets.streamRegistry(world);
        long now = clock.millis();
        // members whose keys expired (the activity ended, its grace passed): nothing is left to read
        redis.zremrangeByScore(registry, "-inf", "(" + now);
        if (streams.isEmpty()) {
            return List.of();
        }
        List<Double> scores = redis.zmscore(registry, streams.toArray(String[]::new));
        List<String> putBack = new ArrayList<>();
        for (int i = 0; i < streams.size(); i++) {
            Double score = scores.get(i);
            if (score != null && score >= now) {
                continue;
            }
            String stream = streams.get(i);
            // the stream's own expiry is the bucket's (preheat and restore set them together)
            long ttl = redis.pttl(stream);
            if (ttl == -2) {
                // not preheated yet, or gone: nothing to read (a restore registers it)
                continue;
            }
            redis.zadd(registry, ttl < 0 ? Double.POSITIVE_INFINITY : now + ttl, stream);
            putBack.add(stream);
        }
        return putBack;
    }

    @Override
    public List<ReservationEvent> readNew(String stream, String consumer, int count) {
        return read(stream, consumer, count, StreamEntryID.XREADGROUP_UNDELIVERED_ENTRY);
    }

    @Override
    public List<ReservationEvent> readOwnPending(String stream, String consumer, int count, String afterEntryId) {
        StreamEntryID after = new StreamEntryID(afterEntryId);
        // XPENDING's range is inclusive: it starts at the id right after the cursor, as XREADGROUP does
        StreamEntryID from = new StreamEntryID(after.getTime(), after.getSequence() + 1);
        // re-reading one's own pending entries is another delivery (reported to the dead-letter copy)
        Map<String, Long> deliveries = new HashMap<>();
        unlessGone(() -> redis.xpending(stream, consumerGroup,
                XPendingParams.xPendingParams(from, StreamEntryID.MAXIMUM_ID, count).consumer(consumer)),
                List.<StreamPendingEntry>of())
                .forEach(p -> deliveries.put(p.getID().toString(), p.getDeliveredTimes() + 1));
        return read(stream, consumer, count, after, deliveries);
    }

    private List<ReservationEvent> read(String stream, String consumer, int count, StreamEntryID from) {
        return read(stream, consumer, count, from, Map.of());
    }

    private List<ReservationEvent> read(String stream, String consumer, int count, StreamEntryID from,
                                        Map<String, Long> deliveries) {
        // the bucket's keys may be gone (expired, or lost by Redis until an operator restores them)
        List<Map.Entry<String, List<StreamEntry>>> reply = unlessGone(() -> redis.xreadGroup(consumerGroup, consumer,
                XReadGroupParams.xReadGroupParams().count(count), Map.of(stream, from)), null);
        List<ReservationEvent> events = new ArrayList<>();
        if (reply == null) {
            return events;
        }
        for (var perStream : reply) {
            for (StreamEntry entry : perStream.getValue()) {
                long times = deliveries.getOrDefault(entry.getID().toString(), 1L);
                events.addAll(toEvents(perStream.getKey(), entry, times));
            }
        }
        return replicated(stream, consumer, events);
    }

    /**
     * The events, once the required replicas hold them. A reservation's {@code 202} waited for its
     * replicas, but a worker may read an event before they have it (its buyer not yet answered, or
     * answered "in doubt"); an order placed for it would outlive a failover that loses it, and the
     * ledger and Redis would disagree for good. {@code WAIT} covers only the writes of its own
     * connection and what the master replicated before them, so the events are claimed again by
     * this consumer (JUSTID: a replicated write that changes nothing else) on the connection that
     * then waits; every event it names was appended before that claim, so the wait covers it. Too
     * few replicas throw {@link UnreplicatedEvents}: the events stay pending with this consumer.
     */
    private List<ReservationEvent> replicated(String stream, String consumer, List<ReservationEvent> events) {
        ReplicaAcks acks = settings.acks();
        if (acks.replicas() <= 0 || events.isEmpty()) {
            return events;
        }
        // an entry recording several reservations is claimed once
        StreamEntryID[] ids = events.stream().map(e -> e.position().entryId()).distinct().map(StreamEntryID::new)
                .toArray(StreamEntryID[]::new);
        try {
            acks.await(redis, stream, pipeline -> pipeline.xclaimJustId(stream, consumerGroup, consumer, 0,
                    XClaimParams.xClaimParams(), ids));
        } catch (ReplicaAcks.Missing e) {
            throw new UnreplicatedEvents(stream, events.size(), e);
        }
        return events;
    }

    @Override
    public void deadLetter(ReservationEvent event, String reason) {
        Map<String, String> fields = new java.util.LinkedHashMap<>();
        fields.put("reservationId", String.valueOf(event.id()));
        fields.put("userId", Long.toString(event.userId()));
        fields.put("quantity", Integer.toString(event.quantity()));
        fields.put("requestId", String.valueOf(event.requestId()));
        fields.put("entryId", event.position().entryId());
        fields.put("deliveries", Long.toString(event.deliveries()));
        fields.put("reason", reason);
        String target = StockBuckets.deadLettersOf(event.position().stream());
        redis.xadd(target, XAddParams.xAddParams(), fields);
        Long ttl = redis.pttl(event.position().stream());
        if (ttl != null && ttl > 0) {
            redis.pexpire(target, ttl);
        }
    }

    @Override
    public long trimSettled(String stream) {
        // one script, not XPENDING + XINFO + XTRIM: a worker reading in between had its entries trimmed
        return trimScript.trim(redis, stream, consumerGroup);
    }

    @Override
    public BucketSnapshot snapshot(long activityId, long skuId, int bucket, int buckets, int pageSize) {
        return snapshotScript.take(redis, StockBuckets.of(activityId, skuId, buckets), bucket, consumerGroup, pageSize);
    }

    @Override
    public java.util.Set<String> refilledAmong(long activityId, long skuId, int bucket, int buckets,
                                               List<String> reservationIds) {
        String key = StockBuckets.of(activityId, skuId, buckets).refilled(bucket);
        java.util.Set<String> refilled = new java.util.HashSet<>();
        // in slices: one reply stays small however many refills a sale had
        for (int from = 0; from < reservationIds.size(); from += 1_000) {
            List<String> slice = reservationIds.subList(from, Math.min(reservationIds.size(), from + 1_000));
            List<Boolean> members = redis.smismember(key, slice.toArray(String[]::new));
            for (int i = 0; i < slice.size(); i++) {
                if (Boolean.TRUE.equals(members.get(i))) {
                    refilled.add(slice.get(i));
                }
            }
        }
        return refilled;
    }

    @Override
    public String streamOf(long activityId, long skuId, int bucket, int buckets) {
        return StockBuckets.of(activityId, skuId, buckets).events(bucket);
    }

    @Override
    public List<ReservationEvent> reclaimIdle(String stream, String consumer, Duration minIdle, int count) {
        List<StreamPendingEntry> pending = unlessGone(() -> redis.xpending(stream, consumerGroup,
                XPendingParams.xPendingParams().idle(minIdle.toMillis()).count(count)), List.of());
        if (pending.isEmpty()) {
            return List.of();
        }
        Map<String, Long> deliveries = new HashMap<>();
        pending.forEach(p -> deliveries.put(p.getID().toString(), p.getDeliveredTimes()));
        // the raw reply: Redis 7 adds the ids of pending entries that are gone from the stream, which
        // it drops from the group right there; the typed reply would lose them without a trace
        List<Object> claimed = redis.xautoclaim(bytes(stream), bytes(consumerGroup), bytes(consumer),
                minIdle.toMillis(), bytes("0-0"), XAutoClaimParams.xAutoClaimParams().count(count));
        List<ReservationEvent> events = new ArrayList<>();
        for (Object raw : (List<?>) claimed.get(1)) {
            if (raw == null) {
                // Redis 6.2 answers a deleted entry with nil and keeps it pending: snapshot.lua counts it lost
                continue;
            }
            List<?> pair = (List<?>) raw;
            String id = RedisScript.text(pair.getFirst());
            Map<String, String> fields = new HashMap<>();
            List<?> flat = (List<?>) pair.get(1);
            for (int i = 0; i + 1 < flat.size(); i += 2) {
                fields.put(RedisScript.text(flat.get(i)), RedisScript.text(flat.get(i + 1)));
            }
            // the claim itself is one more delivery
            long times = deliveries.getOrDefault(id, 1L) + 1;
            events.addAll(toEvents(stream, new StreamEntry(new StreamEntryID(id), fields), times));
        }
        if (claimed.size() > 2 && claimed.get(2) instanceof List<?> deleted && !deleted.isEmpty()) {
            lost(stream, deleted.stream().map(RedisScript::text).toList());
        }
        return replicated(stream, consumer, events);
    }

    /**
     * Entries that were pending (handed out, never acknowledged) yet are gone from the stream: their
     * reservations can no longer be ordered. Never a silent drop: logged as an alarm and kept in the
     * bucket's lost list, which reconciliation counts, so the SKU reports a mismatch until an
     * operator has dealt with them.
     */
    private void lost(String stream, List<String> ids) {
        LOG.severe(() -> "LOST EVENTS: " + ids.size() + " pending entr(y/ies) of " + stream
                + " are gone from the stream: " + ids + "; their reservations cannot be ordered");
        redis.rpush(StockBuckets.lostOf(stream), ids.toArray(String[]::new));
        Long ttl = redis.pttl(stream);
        if (ttl != null && ttl > 0) {
            redis.pexpire(StockBuckets.lostOf(stream), ttl);
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public void acknowledge(List<EventPosition> positions) {
        Map<String, List<StreamEntryID>> byStream = new HashMap<>();
        for (EventPosition position : positions) {
            byStream.computeIfAbsent(position.stream(), s -> new ArrayList<>()).add(new StreamEntryID(position.entryId()));
        }
        byStream.forEach((stream, ids) -> redis.xack(stream, consumerGroup, ids.toArray(StreamEntryID[]::new)));
    }

    @Override
    public long pending(String stream) {
        return unlessGone(() -> redis.xpending(stream, consumerGroup).getTotal(), 0L);
    }

    @Override
    public long undelivered(String stream) {
        // "lag" exists from Redis 7.0; older servers (the embedded 6.2) do not report it
        return ourGroup(stream).map(group -> group.getGroupInfo().get("lag") instanceof Long lag ? lag : 0L).orElse(0L);
    }

    private Optional<StreamGroupInfo> ourGroup(String stream) {
        return unlessGone(() -> redis.xinfoGroups(stream).stream()
                .filter(group -> consumerGroup.equals(group.getName())).findFirst(), Optional.empty());
    }

    /**
     * The call's answer, or {@code whenGone} when Redis says the stream or its group does not exist
     * (nothing is in it then); any other error is thrown.
     */
    private static <T> T unlessGone(java.util.function.Supplier<T> call, T whenGone) {
        try {
            return call.get();
        } catch (JedisDataException e) {
            String message = String.valueOf(e.getMessage());
            if (message.startsWith("NOGROUP") || message.contains("no such key")) {
                return whenGone;
            }
            throw e;
        }
    }

    private List<ReservationEvent> toEvents(String stream, StreamEntry entry, long deliveries) {
        // one decoder for every reader of the stream, every event shape (ReservationEventFields); an entry
        // of a coalesced call is all its reservations, each at the entry's position
        return ReservationEventFields.decodeAll(entry.getFields(),
                new EventPosition(stream, entry.getID().toString()), deliveries);
    }
}
