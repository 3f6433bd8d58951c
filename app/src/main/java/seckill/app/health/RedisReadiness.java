package seckill.app.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import redis.clients.jedis.UnifiedJedis;

/** Ready only while Redis answers: without it no reservation can be judged. */
@Readiness
@ApplicationScoped
public class RedisReadiness implements HealthCheck {

    private final UnifiedJedis redis;

    @Inject
    RedisReadiness(UnifiedJedis redis) {
        this.redis = redis;
    }

    @Override
    public HealthCheckResponse call() {
        try {
            String pong = redis.ping();
            return HealthCheckResponse.named("redis").status("PONG".equalsIgnoreCase(pong)).build();
        } catch (RuntimeException e) {
            return HealthCheckResponse.named("redis").down().withData("error", String.valueOf(e.getMessage())).build();
        }
    }
}
