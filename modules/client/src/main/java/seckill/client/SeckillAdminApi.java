package seckill.client;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * The operator's side of the seckill HTTP API. Every call needs the admin token: build the client
 * with {@link SeckillClients#admin(java.net.URI, String)}, which sends it on each request.
 */
@RegisterRestClient(configKey = "seckill-admin")
@RegisterProvider(ProblemExceptions.class)
@Path("/api/v1/admin")
@Produces(MediaType.APPLICATION_JSON)
public interface SeckillAdminApi {

    /** Launches an activity; the same {@code idempotencyKey} returns the activity the first call launched. */
    @POST
    @Path("activities")
    @Consumes(MediaType.APPLICATION_JSON)
    LaunchedActivity launch(@HeaderParam("Idempotency-Key") String idempotencyKey, NewActivity activity);

    /**
     * Purges a rehearsal (issue #34, docs/rehearsal.md "The purge"): every key and shadow row of it goes; {@code 204},
     * also when nothing was left. A real activity: {@code 405 REAL_ACTIVITY_NOT_DELETABLE}.
     */
    @DELETE
    @Path("activities/{activityId}")
    void purge(@PathParam("activityId") long activityId);

    /** Puts back into Redis whatever stock of the activity it lacks, from the ledger's view. */
    @POST
    @Path("activities/{activityId}/preheat")
    String preheat(@PathParam("activityId") long activityId);

    @GET
    @Path("sales")
    SalesState sales();

    @POST
    @Path("sales/halt")
    SalesState halt();

    /** Resumes when reconciliation is clean; {@code force} resumes anyway. */
    @POST
    @Path("sales/resume")
    SalesState resume(@QueryParam("force") boolean force);

    /** Reconciles the activity now; the JSON report as the service writes it. */
    @POST
    @Path("activities/{activityId}/reconciliation")
    String reconcile(@PathParam("activityId") long activityId);
}
