package seckill.app.http;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import seckill.admission.api.Admission;
import seckill.admission.api.HaltReason;
import seckill.app.sale.LaunchingActivities;
import seckill.app.sale.PurgingRehearsals;
import seckill.redis.World;
import seckill.ledger.api.catalogue.Activity;
import seckill.ledger.api.catalogue.ActivityCatalog;
import seckill.reservation.api.RestoreStock;
import seckill.reservation.api.ReservationUnavailable;
import seckill.settlement.api.Reconciliation;
import seckill.settlement.api.SettlementSweeps;
import seckill.settlement.api.SkuReconciliation;

/**
 * Operators' controls of this instance: halt and resume sales, run the settlement sweeps now, read
 * or run reconciliation, and put a SKU that Redis lost back in place. All need the admin token.
 */
@AdminOnly
@Path("/api/v1/admin")
@ApplicationScoped
public class AdminSalesResource {

    private final Admission admission;
    private final SettlementSweeps sweeps;
    private final Reconciliation reconciliation;
    private final ActivityCatalog catalog;
    private final LaunchingActivities launching;
    private final PurgingRehearsals purging;

    @Inject
    AdminSalesResource(Admission admission,
                       SettlementSweeps sweeps,
                       Reconciliation reconciliation,
                       ActivityCatalog catalog,
                       LaunchingActivities launching,
                       PurgingRehearsals purging) {
        this.admission = admission;
        this.sweeps = sweeps;
        this.reconciliation = reconciliation;
        this.catalog = catalog;
        this.launching = launching;
        this.purging = purging;
    }

    /**
     * Deletes a rehearsal completely (issue #34, docs/rehearsal.md "The purge"): its keys and its shadow rows.
     * A real activity: 405 REAL_ACTIVITY_NOT_DELETABLE. 204 also when nothing of it is left.
     */
    @DELETE
    @Path("activities/{activityId}")
    public Response delete(@PathParam("activityId") String activityIdText) {
        long activityId = Buyer.pathId(activityIdText, "activity");
        if (World.of(activityId) != World.REHEARSAL) {
            throw new Problem(405, "REAL_ACTIVITY_NOT_DELETABLE", "Real activity not deletable",
                    "Only a rehearsal (a shadow sale, docs/rehearsal.md) can be deleted; a real activity's rows and "
                            + "keys are its sale's record. Nothing was changed.");
        }
        try {
            purging.purge(activityId);
        } catch (IllegalStateException noShadowLedger) {
            throw new Problem(501, "REHEARSAL_NOT_AVAILABLE", "Rehearsal not available",
                    "No shadow database (seckill.rehearsal.db.url) is configured: this service holds no rehearsal; "
                            + "nothing was changed.");
        } catch (ReservationUnavailable | redis.clients.jedis.exceptions.JedisException e) {
            throw new Problem(503, "REDIS_UNAVAILABLE", "Redis unavailable",
                    "Redis does not answer; the purge is unfinished. Send the DELETE again.", Duration.ofSeconds(5));
        }
        return Response.noContent().build();
    }

    /**
     * The sales state of one world on this instance: {@code ?world=rehearsal} the rehearsals' own halt
     * (docs/rehearsal.md), absent or {@code real} the real sales', as before.
     */
    @GET
    @Path("sales")
    @Produces(MediaType.APPLICATION_JSON)
    public String sales(@jakarta.ws.rs.QueryParam("world") String worldText) {
        return salesState(world(worldText));
    }

    /** Halts one world on this instance: the real sales (default) or, with {@code ?world=rehearsal}, the rehearsals only. */
    @POST
    @Path("sales/halt")
    @Produces(MediaType.APPLICATION_JSON)
    public String halt(@jakarta.ws.rs.QueryParam("world") String worldText) {
        World world = world(worldText);
        admission.halt(world, HaltReason.OPERATOR);
        return salesState(world);
    }

    /**
     * Resumes one world (default real) only when nothing of it is unsettled and its reconciliation is clean;
     * otherwise 409 says why not.
     */
    @POST
    @Path("sales/resume")
    @Produces(MediaType.APPLICATION_JSON)
    public String resume(@jakarta.ws.rs.QueryParam("force") boolean force,
                         @jakarta.ws.rs.QueryParam("world") String worldText) {
        World world = world(worldText);
        if (force) {
            // the operator takes responsibility for whatever is unsettled or unreconciled
            admission.resume(world);
        } else if (!sweeps.tryResumeSales(world)) {
            throw new Problem(409, "NOT_RECONCILED", "Cannot resume yet",
                    "Events are still unsettled, Redis does not answer, fewer replicas are online than"
                            + " seckill.redis.min-replica-acks requires (the halt's reason says NO_REPLICA; lower the"
                            + " switch to accept fewer), reconciliation is not clean, or a reconciliation pass was still"
                            + " running after seckill.settlement.resume-wait-seconds; see the log"
                            + " and /api/v1/admin/activities/{id}/reconciliation. ?force=true resumes anyway.",
                    Duration.ofSeconds(5));
        }
        return salesState(world);
    }

    /** The {@code world} query parameter: absent or {@code real}, or {@code rehearsal}; anything else 400. */
    private static World world(String text) {
        if (text == null || text.isEmpty() || text.equals(World.REAL.label())) {
            return World.REAL;
        }
        if (text.equals(World.REHEARSAL.label())) {
            return World.REHEARSAL;
        }
        throw new Problem(400, "INVALID_REQUEST", "Invalid request",
                "world must be real (the default) or rehearsal; nothing was changed.");
    }

    @POST
    @Path("settlement/sweep")
    @Produces(MediaType.APPLICATION_JSON)
    public String sweep() {
        int expired = sweeps.expireOverdue();
        int refilled = sweeps.relayRefills();
        return Jsons.PROVIDER.createObjectBuilder().add("expired", expired).add("refilled", refilled).build().toString();
    }

    @GET
    @Path("activities/{activityId}/reconciliation")
    @Produces(MediaType.APPLICATION_JSON)
    public String latest(@PathParam("activityId") String activityIdText) {
        long activityId = Buyer.pathId(activityIdText, "activity");
        return json(activityId, reconciliation.latest(activityId));
    }

    @POST
    @Path("activities/{activityId}/reconciliation")
    @Produces(MediaType.APPLICATION_JSON)
    public String reconcile(@PathParam("activityId") String activityIdText) {
        long activityId = Buyer.pathId(activityIdText, "activity");
        try {
            return json(activityId, reconciliation.reconcile(activityId));
        } catch (ReservationUnavailable e) {
            throw new Problem(503, "REDIS_UNAVAILABLE", "Redis unavailable", "Reconciliation needs Redis.",
                    Duration.ofSeconds(5));
        }
    }

    /**
     * Puts back into Redis, from the ledger's view, every bucket of the activity's SKUs that Redis
     * lost (units left, buyers holding orders, the stream continuing after the ledger's last event);
     * buckets Redis still has are left alone.
     */
    @POST
    @Path("activities/{activityId}/preheat")
    @Produces(MediaType.APPLICATION_JSON)
    public String preheat(@PathParam("activityId") String activityId) {
        long id = Buyer.pathId(activityId, "activity");
        Activity activity = catalog.find(id).orElseThrow(() -> RehearsalGate.notFound(id));
        Map<Long, List<RestoreStock.Outcome>> outcomes;
        try {
            outcomes = launching.restoreMissing(activity);
        } catch (ReservationUnavailable e) {
            throw new Problem(503, "REDIS_UNAVAILABLE", "Redis unavailable", "Redis does not answer; nothing was preheated.",
                    Duration.ofSeconds(5));
        }
        JsonArrayBuilder skus = Jsons.PROVIDER.createArrayBuilder();
        outcomes.forEach((skuId, buckets) -> {
            JsonArrayBuilder states = Jsons.PROVIDER.createArrayBuilder();
            buckets.forEach(outcome -> states.add(outcome.name()));
            skus.add(Jsons.PROVIDER.createObjectBuilder().add("skuId", skuId).add("buckets", states));
        });
        return Jsons.PROVIDER.createObjectBuilder().add("activityId", activity.id()).add("skus", skus).build().toString();
    }

    private String salesState(World world) {
        JsonObjectBuilder json = salesState(admission, world);
        if (world != World.REAL) {
            json.add("world", world.label());
        }
        return json.build().toString();
    }

    /** This instance's sales state: {@code OPEN}, or {@code HALTED} with the reason (also in the overview). */
    static JsonObjectBuilder salesState(Admission admission) {
        return salesState(admission, World.REAL);
    }

    /** {@link #salesState(Admission)} of one world's halt. */
    static JsonObjectBuilder salesState(Admission admission, World world) {
        JsonObjectBuilder json = Jsons.PROVIDER.createObjectBuilder();
        admission.haltedBecause(world).ifPresentOrElse(reason -> json.add("state", "HALTED").add("reason", reason.words()),
                () -> json.add("state", "OPEN"));
        return json;
    }

    private static String json(long activityId, List<SkuReconciliation> results) {
        JsonArrayBuilder skus = Jsons.PROVIDER.createArrayBuilder();
        for (SkuReconciliation r : results) {
            JsonObjectBuilder figures = Jsons.PROVIDER.createObjectBuilder();
            r.figures().forEach(figures::add);
            JsonObjectBuilder sku = Jsons.PROVIDER.createObjectBuilder()
                    .add("skuId", r.skuId())
                    .add("checkedAt", r.checkedAt().toString())
                    .add("state", r.state())
                    .add("figures", figures);
            if (r.detail() != null) {
                sku.add("detail", r.detail());
            }
            skus.add(sku);
        }
        return Jsons.PROVIDER.createObjectBuilder().add("activityId", activityId).add("skus", skus).build().toString();
    }
}
