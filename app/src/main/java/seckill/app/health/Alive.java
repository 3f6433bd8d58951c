package seckill.app.health;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * The process is alive when it can answer at all. Redis and database trouble is readiness, not
 * liveness: restarting the process would not fix either and would drop the ordering workers' work.
 */
@Liveness
@ApplicationScoped
public class Alive implements HealthCheck {

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.up("seckill");
    }
}
