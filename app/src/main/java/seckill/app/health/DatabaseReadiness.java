package seckill.app.health;

import java.util.logging.Level;
import java.util.logging.Logger;

import io.helidon.dbclient.DbClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import seckill.ledger.api.LedgerUnavailable;
import seckill.ledger.api.OrderingSwitch;

/**
 * Says whether the ledger database answers. An outage does not take the instance out of the load
 * balancer: purchases are judged in Redis and queue in the stream until the workers can write them,
 * so the check stays UP and says why ordering is backing off ({@code ledger: UNAVAILABLE}). Any
 * other failure (a broken schema, bad credentials) is DOWN.
 */
@Readiness
@ApplicationScoped
public class DatabaseReadiness implements HealthCheck {

    private static final Logger LOG = Logger.getLogger(DatabaseReadiness.class.getName());

    private final DbClient db;
    private final OrderingSwitch ordering;

    @Inject
    DatabaseReadiness(DbClient db,
                      OrderingSwitch ordering) {
        this.db = db;
        this.ordering = ordering;
    }

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("database");
        try {
            db.execute().query("SELECT 1").close();
            response.up().withData("ledger", "AVAILABLE");
        } catch (RuntimeException e) {
            // probes get a stable word; the driver's text (addresses, URLs) goes to the log only
            LOG.log(Level.FINE, "database readiness probe failed", e);
            if (LedgerUnavailable.isOutage(e)) {
                response.up().withData("ledger", "UNAVAILABLE");
            } else {
                LOG.log(Level.WARNING, "the database answers, but not as the ledger should", e);
                response.down().withData("ledger", "FAILING");
            }
        }
        ordering.ledgerOutage().ifPresent(why -> response.withData("ordering", why));
        return response.build();
    }
}
