package seckill.ledger;

import java.util.Optional;
import java.util.function.Function;

import io.helidon.dbclient.DbClient;
import seckill.redis.World;

/**
 * The ledger of each world (issue #34, docs/rehearsal.md): the real {@link DbClient}, and the shadow one of
 * rehearsals when {@code seckill.rehearsal.db.url} is set. A use case holding a reservation id, an activity
 * id or an order number asks for the ledger of that id's world; the shadow world's is empty when none is
 * configured, and then the id is answered as one the ledger does not know.
 */
final class LedgersByWorld {

    private final DbClient real;
    private final Optional<DbClient> shadow;

    LedgersByWorld(DbClient real, Optional<DbClient> shadow) {
        this.real = real;
        this.shadow = shadow;
    }

    Optional<DbClient> of(World world) {
        return world == World.REAL ? Optional.of(real) : shadow;
    }

    /** Something built once per configured world over its ledger (SQL helpers): real, and shadow when there is one. */
    <T> PerWorld<T> each(Function<DbClient, T> build) {
        return new PerWorld<>(build.apply(real), shadow.map(build));
    }

    /** One {@code T} per configured world. */
    record PerWorld<T>(T real, Optional<T> rehearsal) {

        Optional<T> of(World world) {
            return world == World.REAL ? Optional.of(real) : rehearsal;
        }
    }
}
