package seckill.app.sale;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import seckill.admission.api.AdmissionPurge;
import seckill.ledger.api.RehearsalPurge;
import seckill.ledger.api.catalogue.ActivityCatalog;
import seckill.ledger.api.catalogue.SkuLine;
import seckill.queue.api.LinePurge;
import seckill.redis.World;
import seckill.reservation.api.StockPurge;
import seckill.settlement.api.ReconciliationPurge;

/**
 * Deleting a rehearsal (issue #34, docs/rehearsal.md "The purge"): each module purges what it owns through its
 * own api, in the order that leaves nothing half-alive: the rehearsal is ended in the shadow table and told sold
 * out on {@code rh:soldout}; its streams leave {@code rh:streams} and its keys go (stock, line, admission: every
 * pattern built from {@code rh:} and the id); then its rows in the shadow database (settlement's, then the
 * ledger's, the activity last). Idempotent: a purge interrupted is finished by the next one, and one of a
 * rehearsal that is gone deletes nothing.
 */
@ApplicationScoped
public class PurgingRehearsals {

    private static final Logger LOG = Logger.getLogger(PurgingRehearsals.class.getName());

    private final ActivityCatalog catalog;
    private final RehearsalPurge ledger;
    private final ReconciliationPurge settlement;
    private final StockPurge stock;
    private final LinePurge line;
    private final AdmissionPurge admission;
    private final Clock clock;
    private final Duration workerPass;

    @Inject
    PurgingRehearsals(ActivityCatalog catalog, RehearsalPurge ledger, ReconciliationPurge settlement, StockPurge stock,
                      LinePurge line, AdmissionPurge admission, Clock clock,
                      @ConfigProperty(name = "seckill.ordering.streams-repair-seconds", defaultValue = "5") long workerPassSeconds) {
        this.catalog = catalog;
        this.ledger = ledger;
        this.settlement = settlement;
        this.stock = stock;
        this.line = line;
        this.admission = admission;
        this.clock = clock;
        this.workerPass = Duration.ofSeconds(Math.max(0, workerPassSeconds));
    }

    /** What a purge came to. */
    public record Purged(long keys, long rows) {
    }

    /**
     * Purges the rehearsal {@code rehearsalId}.
     *
     * @throws IllegalArgumentException for a real activity id (never deletable)
     * @throws IllegalStateException    when no shadow ledger is configured
     */
    public Purged purge(long rehearsalId) {
        if (World.of(rehearsalId) != World.REHEARSAL) {
            throw new IllegalArgumentException("a real activity is never deleted: " + rehearsalId);
        }
        List<Long> skus = catalog.findInLedger(rehearsalId)
                .map(a -> a.skus().stream().map(SkuLine::skuId).toList()).orElse(List.of());
        ledger.end(rehearsalId, clock.instant());
        long keys = admission.purge(rehearsalId, skus);
        keys += stock.purge(rehearsalId);
        keys += line.purge(rehearsalId);
        // one worker pass: a batch read before its stream went finishes (its order rows then go below), and every
        // instance's list of live streams has dropped the rehearsal's (docs/rehearsal.md, "The purge", step 4)
        try {
            Thread.sleep(workerPass);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            // not an IllegalStateException (the route reads that as "no shadow ledger"); the next DELETE finishes
            throw new java.util.concurrent.CancellationException("purge of rehearsal " + rehearsalId
                    + " interrupted before its rows");
        }
        // anything a call in flight wrote meanwhile
        keys += stock.purge(rehearsalId) + admission.purge(rehearsalId, skus);
        long rows = settlement.purge(rehearsalId);
        rows += ledger.purgeRows(rehearsalId);
        long keysDeleted = keys;
        long rowsDeleted = rows;
        LOG.info(() -> "rehearsal " + rehearsalId + " purged: " + keysDeleted + " keys, " + rowsDeleted + " rows");
        return new Purged(keys, rows);
    }
}
