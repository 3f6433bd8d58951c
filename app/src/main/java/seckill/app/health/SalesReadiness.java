package seckill.app.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;
import seckill.admission.api.Admission;
import seckill.ledger.api.LedgerUnavailable;
import seckill.ledger.api.RefillOutbox;
import seckill.reservation.api.ReservationEvents;
import seckill.settlement.api.Reconciliation;

/**
 * Not ready while this instance has halted sales or the latest reconciliation of a live SKU is
 * alarming; reports the stream backlog and the outbox backlog beside.
 */
@Readiness
@ApplicationScoped
public class SalesReadiness implements HealthCheck {

    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(SalesReadiness.class.getName());

    private final Admission admission;
    private final Reconciliation reconciliation;
    private final ReservationEvents events;
    private final RefillOutbox ledger;
    private final seckill.ledger.api.LedgerBinding binding;

    @Inject
    SalesReadiness(Admission admission,
                   Reconciliation reconciliation,
                   ReservationEvents events,
                   RefillOutbox ledger,
                   seckill.ledger.api.LedgerBinding binding) {
        this.admission = admission;
        this.reconciliation = reconciliation;
        this.events = events;
        this.ledger = ledger;
        this.binding = binding;
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder response = HealthCheckResponse.named("sales").up();
        admission.haltedBecause().ifPresent(reason -> response.down().withData("halted", reason.words()));
        // said here too: on an instance without settlement sweeps nothing halts for it, yet nothing is ordered
        binding.foreign().ifPresent(wrong -> response.down().withData("ledgerBinding", wrong));
        try {
            reconciliation.alarm().ifPresent(alarm -> response.down()
                    .withData("reconciliation", alarm.state() + " activity " + alarm.activityId() + " sku "
                            + alarm.skuId() + ": " + alarm.detail()));
            response.withData("unsettledEvents", events.unsettled());
            try {
                response.withData("outboxBacklog", ledger.refillBacklog());
            } catch (RuntimeException e) {
                if (!LedgerUnavailable.isOutage(e)) {
                    throw e;
                }
                // the database check says so; the stream keeps the sale going meanwhile
                response.withData("outboxBacklog", "unknown: ledger database unavailable");
            }
        } catch (RuntimeException e) {
            LOG.log(java.util.logging.Level.WARNING, "sales readiness could not be judged", e);
            response.down().withData("error", "sales readiness could not be judged");
        }
        return response.build();
    }
}
