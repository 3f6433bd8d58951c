package seckill.app.health;

import io.helidon.dbclient.DbClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready only while the ledger database answers. */
@Readiness
@ApplicationScoped
public class DatabaseReadiness implements HealthCheck {

    @Inject
    DbClient db;

    @Override
    public HealthCheckResponse call() {
        try {
            db.execute().query("SELECT 1").close();
            return HealthCheckResponse.named("database").up().build();
        } catch (RuntimeException e) {
            return HealthCheckResponse.named("database").down().withData("error", String.valueOf(e.getMessage())).build();
        }
    }
}
