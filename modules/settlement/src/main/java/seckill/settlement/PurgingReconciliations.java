package seckill.settlement;

import java.util.Optional;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import seckill.ledger.wiring.ShadowLedger;
import seckill.redis.World;
import seckill.settlement.api.ReconciliationPurge;

/** {@link ReconciliationPurge} on the shadow {@code DbClient}; never given the real one. */
@ApplicationScoped
class PurgingReconciliations implements ReconciliationPurge {

    private final Optional<DbClient> shadow;

    @Inject
    PurgingReconciliations(@ShadowLedger Optional<DbClient> shadow) {
        this.shadow = shadow;
    }

    @Override
    public long purge(long rehearsalId) {
        if (World.of(rehearsalId) != World.REHEARSAL) {
            throw new IllegalArgumentException("not a rehearsal id: " + rehearsalId);
        }
        DbClient db = shadow.orElseThrow(() -> new IllegalStateException(
                "no rehearsal ledger: seckill.rehearsal.db.url is not set (docs/rehearsal.md)"));
        DbTransaction tx = db.transaction();
        try {
            long deleted = tx.dml("DELETE FROM seckill_payment WHERE order_no IN"
                    + " (SELECT order_no FROM seckill_order WHERE activity_id = ?)", rehearsalId);
            deleted += tx.dml("DELETE FROM seckill_reconciliation WHERE activity_id = ?", rehearsalId);
            tx.commit();
            return deleted;
        } catch (RuntimeException e) {
            tx.rollback();
            throw e;
        }
    }
}
