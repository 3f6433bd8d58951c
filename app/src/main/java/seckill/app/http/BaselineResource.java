package seckill.app.http;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A JAX-RS endpoint that does nothing but take a JSON body and answer a constant: the framework's
 * ceiling on this machine, measured side by side with the purchase path by the benchmarks. On only
 * when {@code seckill.baseline.enabled} (true in dev mode, false otherwise): a production service
 * offers no free endpoint to flood.
 */
@Path("/api/v1/baseline")
@ApplicationScoped
public class BaselineResource {

    private static final String ANSWER = "{\"ok\":true}";

    private final boolean enabled;

    @Inject
    BaselineResource(@ConfigProperty(name = "seckill.baseline.enabled", defaultValue = "false") boolean enabled) {
        this.enabled = enabled;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public String echo(String body) {
        if (!enabled) {
            throw new Problem(404, "NOT_FOUND", "Not found", "The baseline endpoint is off (seckill.baseline.enabled).");
        }
        return ANSWER;
    }
}
