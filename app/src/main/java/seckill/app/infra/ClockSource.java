package seckill.app.infra;

import java.time.Clock;
import java.time.Duration;

import io.helidon.dbclient.DbClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.Config;

/**
 * The application's one source of time: the ledger database's clock ({@link LedgerClock}), read every
 * {@code seckill.clock.sync-seconds} (10; {@code 0}: this host's clock, for a deployment that trusts its
 * time sync). Tests replace it to make time exact.
 */
@ApplicationScoped
class ClockSource {

    @Produces
    @Singleton
    Clock clock(DbClient db, Config config) {
        long seconds = config.getOptionalValue("seckill.clock.sync-seconds", Long.class).orElse(10L);
        if (seconds <= 0) {
            return Clock.systemUTC();
        }
        return LedgerClock.started(() -> db.execute().get("SELECT UNIX_TIMESTAMP(NOW(6)) AS now")
                .map(row -> LedgerClock.epoch(row.column("now").get()))
                .orElseThrow(() -> new IllegalStateException("no answer to SELECT UNIX_TIMESTAMP(NOW(6))")),
                Duration.ofSeconds(seconds));
    }
}
