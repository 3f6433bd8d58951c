package seckill.ledger;

import io.helidon.dbclient.DbClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.Config;
import seckill.ledger.sql.LedgerRows;

/**
 * Makes the module's one {@link OrderingSettings} injectable, read from MicroProfile Config once,
 * the {@link PaceSwitch}, read again while the service runs, and the one {@link LedgerRows} (the
 * module's SQL) the use cases share.
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
}
