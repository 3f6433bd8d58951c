package seckill.ledger;

import io.helidon.dbclient.DbClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Optional;
import seckill.ledger.wiring.ShadowLedger;
import org.eclipse.microprofile.config.Config;
import seckill.ledger.sql.LedgerRows;

/**
 * Makes the module's one {@link OrderingSettings} injectable, read from MicroProfile Config once,
 * the {@link PaceSwitch}, read again while the service runs, the one {@link LedgerRows} (the
 * module's SQL) the use cases share, and the ledger of each world ({@link LedgersByWorld}).
 */
@ApplicationScoped
class OrderingConfiguration {

    @Produces
    @Singleton
    OrderingSettings settings(Config config) {
        return OrderingSettings.from(config);
    }

    @Produces
    @Singleton
    PaceSwitch paceSwitch(Config config) {
        return PaceSwitch.inForce(config);
    }

    @Produces
    @Singleton
    LedgerRows ledgerRows(DbClient db) {
        return new LedgerRows(db);
    }

    @Produces
    @Singleton
    LedgersByWorld ledgers(DbClient db, @ShadowLedger Optional<DbClient> shadow) {
        return new LedgersByWorld(db, shadow);
    }
}
