package seckill.ledger;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.api.RehearsalPurge;
import seckill.ledger.sql.UtcTime;
import seckill.ledger.wiring.ShadowLedger;
import seckill.redis.World;

/** {@link RehearsalPurge} on the shadow {@code DbClient}; never given the real one. */
@ApplicationScoped
class PurgingRehearsalRows implements RehearsalPurge {

    /** Rows of the rehearsal's reservations, then of the activity; the activity's own row last. */
    private static final List<String> DELETES = List.of(
            "DELETE FROM seckill_reservation_rejection WHERE reservation_id LIKE CONCAT(?, '-%')",
            "DELETE FROM seckill_order_number WHERE reservation_id LIKE CONCAT(?, '-%')",
            "DELETE FROM seckill_order WHERE activity_id = ?",
            "DELETE FROM seckill_stock_log WHERE activity_id = ?",
            "DELETE FROM seckill_reservation_failure WHERE activity_id = ?",
            "DELETE FROM stock_sync_outbox WHERE activity_id = ?",
            "DELETE FROM seckill_line_turn_left WHERE activity_id = ?",
            "DELETE FROM seckill_stock WHERE activity_id = ?",
            "DELETE FROM seckill_activity_request WHERE activity_id = ?",
            "DELETE FROM seckill_activity WHERE id = ?");

    private final Optional<DbClient> shadow;

    @Inject
    PurgingRehearsalRows(@ShadowLedger Optional<DbClient> shadow) {
        this.shadow = shadow;
    }

    private DbClient shadow(long rehearsalId) {
        if (World.of(rehearsalId) != World.REHEARSAL) {
            throw new IllegalArgumentException("not a rehearsal id: " + rehearsalId);
        }
        return shadow.orElseThrow(() -> new IllegalStateException(
                "no rehearsal ledger: seckill.rehearsal.db.url is not set (docs/rehearsal.md)"));
    }

    @Override
    public boolean end(long rehearsalId, Instant now) {
        DbClient db = shadow(rehearsalId);
        db.execute().dml("UPDATE seckill_activity SET ends_at = LEAST(ends_at, ?) WHERE id = ?",
                UtcTime.column(now), rehearsalId);
        return db.execute().get("SELECT id FROM seckill_activity WHERE id = ?", rehearsalId).isPresent();
    }

    @Override
    public long purgeRows(long rehearsalId) {
        DbClient db = shadow(rehearsalId);
        DbTransaction tx = db.transaction();
        try {
            long deleted = 0;
            for (String delete : DELETES) {
                deleted += tx.dml(delete, delete.contains("LIKE") ? Long.toString(rehearsalId) : rehearsalId);
            }
            tx.commit();
            return deleted;
        } catch (RuntimeException e) {
            tx.rollback();
            throw e;
        }
    }
}
