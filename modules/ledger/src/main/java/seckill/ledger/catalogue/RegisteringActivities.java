package seckill.ledger.catalogue;

import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import com.github.benmanes.caffeine.cache.Caffeine;

import io.helidon.dbclient.DbClient;
import jakarta.annotation.PostConstruct;
import jakarta.inject.Inject;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.catalogue.ActivityCatalog;
import seckill.ledger.OrderingSettings;
import seckill.ledger.api.IdempotentRequest;
import seckill.ledger.api.catalogue.NewActivity;
import seckill.ledger.sql.ActivityRows;

/**
 * Registers activities in the ledger and serves lookups from memory. Activities never change after
 * registration, so a found one is cached for good; an unknown id is remembered for a while
 * ({@code seckill.ordering.activity-miss-millis}, a second) so a flood of requests for a bad id cannot
 * reach the database. A remembered miss only answers lookups; {@link #findInLedger} never uses one.
 */
@HotPathSingleton
class RegisteringActivities implements ActivityCatalog {

    private final DbClient db;

    private final Clock clock;

    private final long missMillis;

    @Inject
    RegisteringActivities(DbClient db,
                          Clock clock,
                          OrderingSettings settings) {
        this.db = db;
        this.clock = clock;
        this.missMillis = settings.activityMissMillis();
    }

    private ActivityRows rows;
    private seckill.ledger.sql.LedgerRows ledger;
    private final Map<Long, Activity> known = new ConcurrentHashMap<>();
    // bounded: a flood of lookups for made-up ids evicts old misses one by one, never the whole map
    private final Map<Long, Long> missesUntil = Caffeine.newBuilder().maximumSize(10_000).<Long, Long>build().asMap();

    @PostConstruct
    void init() {
        rows = new ActivityRows(db);
        ledger = new seckill.ledger.sql.LedgerRows(db);
    }

    @Override
    public Activity register(NewActivity activity) {
        Activity stored = rows.insert(activity, clock.instant());
        known.put(stored.id(), stored);
        missesUntil.remove(stored.id());
        return stored;
    }

    @Override
    public Registration register(NewActivity activity, IdempotentRequest request) {
        Optional<Activity> earlier = registeredFor(request);
        if (earlier.isPresent()) {
            return new Registration(earlier.get(), false);
        }
        try {
            Activity stored = rows.insert(activity, request, clock.instant());
            known.put(stored.id(), stored);
            missesUntil.remove(stored.id());
            return new Registration(stored, true);
        } catch (RuntimeException e) {
            // a concurrent request with the same key won the insert: answer with what it registered
            return registeredFor(request).map(a -> new Registration(a, false)).orElseThrow(() -> e);
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

    @Override
    public java.util.List<Long> endingAfter(java.time.Instant endedAfter) {
        return ledger.activitiesEndingAfter(endedAfter);
    }

    @Override
    public Optional<Activity> find(long activityId) {
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

    @Override
    public Optional<Activity> findInLedger(long activityId) {
        // one query per activity however many callers miss at once (a second instance's first burst
        // would otherwise queue hundreds of identical lookups on the connection pool)
        Activity loaded = known.computeIfAbsent(activityId, id -> rows.find(id).orElse(null));
        if (loaded != null) {
            missesUntil.remove(activityId);
        }
        return Optional.ofNullable(loaded);
    }
}
