package seckill.app.http;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * A JAX-RS endpoint that does nothing but take a JSON body and answer a constant: the framework's
 * ceiling on this machine, measured side by side with the purchase path by the benchmarks.
 */
@Path("/api/v1/baseline")
@ApplicationScoped
public class BaselineResource {

    private static final String ANSWER = "{\"ok\":true}";

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public String echo(String body) {
        return ANSWER;
    }
}
