package seckill.ledger.catalogue;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import io.helidon.dbclient.DbClient;
import jakarta.inject.Inject;
import seckill.ledger.OrderingSettings;
import seckill.ledger.api.IdempotentRequest;
import seckill.ledger.wiring.ShadowLedger;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.catalogue.ActivityCatalog;
import seckill.ledger.api.catalogue.NewActivity;
import seckill.redis.World;

/**
 * The activity catalogue every caller is given: the real ledger's catalogue, and the shadow ledger's when one
 * is configured (issue #34, docs/rehearsal.md), each asked by the world of the id in hand
 * ({@link World#of}), with no lookup and no flag. Without a shadow ledger a rehearsal id is simply unknown,
 * and a real id is answered exactly as before.
 */
@HotPathSingleton
class CataloguesByWorld implements ActivityCatalog {

    private final RegisteringActivities real;
    private final Optional<RegisteringActivities> rehearsal;

    @Inject
    CataloguesByWorld(DbClient db, @ShadowLedger Optional<DbClient> shadow, Clock clock, OrderingSettings settings) {
        this.real = new RegisteringActivities(db, World.REAL, clock, settings.activityMissMillis());
        this.rehearsal = shadow.map(s -> new RegisteringActivities(s, World.REHEARSAL, clock, settings.activityMissMillis()));
    }

    private RegisteringActivities of(World world) {
        if (world == World.REAL) {
            return real;
        }
        return rehearsal.orElseThrow(() -> new IllegalStateException(
                "no rehearsal ledger: seckill.rehearsal.db.url is not set (docs/rehearsal.md)"));
    }

    @Override
    public Activity register(NewActivity activity) {
        return real.register(activity);
    }

    @Override
    public Activity register(World world, NewActivity activity) {
        return of(world).register(activity);
    }

    @Override
    public Registration register(NewActivity activity, IdempotentRequest request) {
        return real.register(activity, request);
    }

    @Override
    public Registration register(World world, NewActivity activity, IdempotentRequest request) {
        return of(world).register(activity, request);
    }

    @Override
    public Optional<Activity> find(long activityId) {
        if (World.of(activityId) == World.REAL) {
            return real.find(activityId);
        }
        return rehearsal.isPresent() ? rehearsal.get().find(activityId) : Optional.empty();
    }

    @Override
    public Optional<Activity> findInLedger(long activityId) {
        if (World.of(activityId) == World.REAL) {
            return real.findInLedger(activityId);
        }
        return rehearsal.isPresent() ? rehearsal.get().findInLedger(activityId) : Optional.empty();
    }

    @Override
    public List<Long> endingAfter(World world, Instant endedAfter) {
        if (world == World.REAL) {
            return real.endingAfter(endedAfter);
        }
        return rehearsal.isPresent() ? rehearsal.get().endingAfter(endedAfter) : List.of();
    }
}
