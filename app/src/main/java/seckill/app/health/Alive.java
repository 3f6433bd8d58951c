package seckill.app.health;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;

import io.helidon.microprofile.server.ServerCdiExtension;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * The process is alive when it can answer at all and its service port still listens. Redis and
 * database trouble is readiness, not liveness: restarting the process would not fix either and would
 * drop the ordering workers' work. A service port that stopped listening is liveness: Helidon ends a
 * listener for good when an accept fails (files used up), and health answers on the management
 * socket, another listener, so only this check tells the orchestrator to restart the instance.
 */
@Liveness
@ApplicationScoped
public class Alive implements HealthCheck {

    private static final int CONNECT_MILLIS = 500;

    private final BeanManager beans;

    @Inject
    Alive(BeanManager beans) {
        this.beans = beans;
    }

    @Override
    public HealthCheckResponse call() {
        ServerCdiExtension server = beans.getExtension(ServerCdiExtension.class);
        if (!server.started()) {
            return HealthCheckResponse.up("seckill");
        }
        int port = server.port();
        String host = server.host();
        // a wildcard bind answers on loopback; a bind to one address only there
        String target = host == null || host.isBlank() || host.equals("0.0.0.0") || host.equals("::")
                ? "127.0.0.1" : host;
        try (Socket probe = new Socket()) {
            probe.connect(new InetSocketAddress(target, port), CONNECT_MILLIS);
        } catch (ConnectException refused) {
            return HealthCheckResponse.named("seckill").down()
                    .withData("servicePort", "service port " + port + " is not listening (refused)").build();
        } catch (IOException busy) {
            // a full backlog under a flood times out: busy, not dead; restarting would only help the flood
        }
        return HealthCheckResponse.up("seckill");
    }
}
