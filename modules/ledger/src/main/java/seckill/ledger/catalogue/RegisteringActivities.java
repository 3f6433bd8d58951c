package seckill.ledger.catalogue;

import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import com.github.benmanes.caffeine.cache.Caffeine;

import io.helidon.dbclient.DbClient;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.catalogue.ActivityCatalog;
import seckill.ledger.api.IdempotentRequest;
import seckill.ledger.api.catalogue.NewActivity;
import seckill.ledger.sql.ActivityRows;
import seckill.redis.World;

/**
 * Registers activities in the ledger and serves lookups from memory. Activities never change after
 * registration, so a found one is cached for good; an unknown id is remembered for a while
 * ({@code seckill.ordering.activity-miss-millis}, a second) so a flood of requests for a bad id cannot
 * reach the database. A remembered miss only answers lookups; {@link #findInLedger} never uses one.
 * One per ledger: the real one's and the shadow one's, behind {@link CataloguesByWorld}.
 */
final class RegisteringActivities {

    private final Clock clock;

    private final long missMillis;

    private final ActivityRows rows;
    private final seckill.ledger.sql.LedgerRows ledger;
    private final Map<Long, Activity> known = new ConcurrentHashMap<>();
    // bounded: a flood of lookups for made-up ids evicts old misses one by one, never the whole map
    private final Map<Long, Long> missesUntil = Caffeine.newBuilder().maximumSize(10_000).<Long, Long>build().asMap();

    /** The catalogue of the ledger {@code db} of {@code world}: it registers only ids of that world's range. */
    RegisteringActivities(DbClient db, World world, Clock clock, long missMillis) {
        this.clock = clock;
        this.missMillis = missMillis;
        this.rows = new ActivityRows(db, world);
        this.ledger = new seckill.ledger.sql.LedgerRows(db);
    }

    Activity register(NewActivity activity) {
        Activity stored = rows.insert(activity, clock.instant());
        known.put(stored.id(), stored);
        missesUntil.remove(stored.id());
        return stored;
    }

    ActivityCatalog.Registration register(NewActivity activity, IdempotentRequest request) {
        Optional<Activity> earlier = registeredFor(request);
        if (earlier.isPresent()) {
            return new ActivityCatalog.Registration(earlier.get(), false);
        }
        try {
            Activity stored = rows.insert(activity, request, clock.instant());
            known.put(stored.id(), stored);
            missesUntil.remove(stored.id());
            return new ActivityCatalog.Registration(stored, true);
        } catch (RuntimeException e) {
            // a concurrent request with the same key won the insert: answer with what it registered
            return registeredFor(request).map(a -> new ActivityCatalog.Registration(a, false)).orElseThrow(() -> e);
        }
    }

    private Optional<Activity> registeredFor(IdempotentRequest request) {
        return rows.registeredUnder(request.key()).map(earlier -> {
            if (!earlier.fingerprint().equals(request.fingerprint())) {
                throw new IdempotentRequest.Conflict(request.key());
            }
            return find(earlier.activityId()).orElseThrow(
                    () -> new IllegalStateException("activity " + earlier.activityId() + " of key " + request.key()
                            + " is gone"));
        });
    }

    java.util.List<Long> endingAfter(java.time.Instant endedAfter) {
        return ledger.activitiesEndingAfter(endedAfter);
    }

    Optional<Activity> find(long activityId) {
        Activity cached = known.get(activityId);
        if (cached != null) {
            return Optional.of(cached);
        }
        Long missUntil = missesUntil.get(activityId);
        long now = clock.millis();
        if (missUntil != null && missUntil > now) {
            return Optional.empty();
        }
        Optional<Activity> loaded = findInLedger(activityId);
        if (loaded.isEmpty()) {
            missesUntil.put(activityId, now + missMillis);
        }
        return loaded;
    }

    Optional<Activity> findInLedger(long activityId) {
        // one query per activity however many callers miss at once (a second instance's first burst
        // would otherwise queue hundreds of identical lookups on the connection pool)
        Activity loaded = known.computeIfAbsent(activityId, id -> rows.find(id).orElse(null));
        if (loaded != null) {
            missesUntil.remove(activityId);
        }
        return Optional.ofNullable(loaded);
    }
}
