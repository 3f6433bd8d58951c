package seckill.ledger.sql;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbRow;
import io.helidon.dbclient.DbTransaction;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.IdempotentRequest;
import seckill.ledger.api.catalogue.NewActivity;
import seckill.ledger.api.catalogue.SkuLine;
import seckill.ledger.api.catalogue.SkuPrice;

/**
 * Reads and writes the seckill_activity and seckill_stock rows of one world's ledger (the real one, or the
 * shadow database of rehearsals: docs/rehearsal.md).
 */
public final class ActivityRows {

    private final DbClient db;
    private final seckill.redis.World world;

    /** The real ledger's rows. */
    public ActivityRows(DbClient db) {
        this(db, seckill.redis.World.REAL);
    }

    public ActivityRows(DbClient db, seckill.redis.World world) {
        this.db = db;
        this.world = world;
    }

    /** Inserts the activity and its stock rows in one transaction. */
    public Activity insert(NewActivity activity, Instant now) {
        return insert(activity, null, now);
    }

    /**
     * Inserts the activity, its stock rows and, when {@code request} is given, its idempotency key,
     * in one transaction; a key already taken rolls it all back (the caller looks the key up).
     */
    public Activity insert(NewActivity activity, IdempotentRequest request, Instant now) {
        DbTransaction tx = db.transaction();
        try {
            tx.insert(OrderingSql.INSERT_ACTIVITY, activity.name(), UtcTime.column(activity.startsAt()),
                    UtcTime.column(activity.endsAt()), activity.paymentWindow().toSeconds(), UtcTime.column(now));
            long id = Columns.longOf(tx.get(OrderingSql.LAST_INSERT_ID).orElseThrow(), "id");
            if (seckill.redis.World.of(id) != world) {
                // its keys would be the other world's (docs/rehearsal.md): nothing is registered
                throw new IllegalStateException("activity id " + id + " is of the " + seckill.redis.World.of(id)
                        + " world's range (" + (world == seckill.redis.World.REAL ? "rehearsals" : "real sales")
                        + "), and this is the " + world + " world's ledger: not registered");
            }
            for (SkuLine sku : activity.skus()) {
                tx.insert(OrderingSql.INSERT_STOCK, id, sku.skuId(), sku.total(), sku.total(), sku.perUserLimit(),
                        sku.buckets(), sku.name().orElse(""), sku.price().map(SkuPrice::amountText).orElse(""),
                        sku.price().map(SkuPrice::currency).orElse(""), sku.picture().orElse(""));
            }
            if (request != null) {
                tx.insert(OrderingSql.INSERT_ACTIVITY_REQUEST, request.key(), request.fingerprint(), id,
                        UtcTime.column(now));
            }
            tx.commit();
            return new Activity(id, activity.name(), activity.startsAt(), activity.endsAt(), activity.paymentWindow(),
                    activity.skus());
        } catch (RuntimeException e) {
            Transactions.rollbackQuietly(tx, e);
            throw e;
        }
    }

    /** The activity registered under an idempotency key, with the request's fingerprint. */
    public Optional<RegisteredRequest> registeredUnder(String key) {
        return db.execute().get(OrderingSql.SELECT_ACTIVITY_REQUEST, key)
                .map(r -> new RegisteredRequest(Columns.textOf(r, "fingerprint"), Columns.longOf(r, "activity_id")));
    }

    /** What an idempotency key was first used for. */
    public record RegisteredRequest(String fingerprint, long activityId) {
    }

    public Optional<Activity> find(long activityId) {
        Optional<DbRow> row = db.execute().get(OrderingSql.SELECT_ACTIVITY, activityId);
        if (row.isEmpty()) {
            return Optional.empty();
        }
        List<SkuLine> skus = new ArrayList<>();
        try (Stream<DbRow> lines = db.execute().query(OrderingSql.SELECT_STOCK_LINES, activityId)) {
            lines.forEach(line -> skus.add(new SkuLine(
                    Columns.longOf(line, "sku_id"),
                    Columns.longOf(line, "total"),
                    Columns.intOf(line, "per_user_limit"),
                    Columns.intOf(line, "buckets"),
                    Columns.optionalTextOf(line, "name"),
                    Columns.priceOf(line, "price_amount", "price_currency"),
                    Columns.optionalTextOf(line, "picture"))));
        }
        DbRow a = row.get();
        return Optional.of(new Activity(Columns.longOf(a, "id"), Columns.textOf(a, "name"),
                UtcTime.instant(a.column("starts_at").get()), UtcTime.instant(a.column("ends_at").get()),
                Duration.ofSeconds(Columns.intOf(a, "payment_window_seconds")), skus));
    }
}
