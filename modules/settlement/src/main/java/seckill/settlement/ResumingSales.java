package seckill.settlement;

import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import seckill.admission.api.Admission;
import seckill.admission.api.HaltReason;
import seckill.ledger.api.LedgerBinding;
import seckill.redis.World;
import seckill.reservation.api.EvictionStatus;
import seckill.reservation.api.ReplicaStatus;
import seckill.reservation.api.ReservationUnavailable;
import seckill.settlement.api.SkuReconciliation;
import seckill.settlement.rules.ResumeRule;

/**
 * "When the arbiter is in doubt, stop issuing, count what is unsettled, then resume." Sales halted
 * because Redis was in doubt resume when Redis answers again and every live SKU reconciles clean,
 * the events still in flight counted exactly (so other instances may keep selling meanwhile).
 * Never by falling back to another path, and never while the master lacks the replicas a
 * reservation must reach: such a halt stays, saying so ({@code NO_REPLICA}), until one is back or an
 * operator lowers {@code seckill.redis.min-replica-acks}. Checked first, each time: a namespace bound
 * to another ledger halts sales ({@link HaltReason.ForeignLedger}) and keeps them halted.
 * <p>
 * Per world (docs/rehearsal.md): each world's halt is resumed on that world's own reconciliation, so a rehearsal's
 * doubt is cleared by the rehearsals' figures and never holds real sales (nor the reverse). The replicas and the
 * eviction policy are Redis's, the same for both worlds; the ledger binding checked here is the real namespace's
 * (a foreign {@code rh:ledger} idles the rehearsal workers, docs/rehearsal.md).
 */
@ApplicationScoped
class ResumingSales {

    private static final Logger LOG = Logger.getLogger(ResumingSales.class.getName());

    private final Admission admission;
    private final Reconciling reconciling;
    private final ReplicaStatus replicas;
    private final LedgerBinding binding;
    private final ResumeRule rule;
    private final EvictionStatus eviction;
    private final java.time.Duration resumeWait;

    @Inject
    ResumingSales(Admission admission,
                  Reconciling reconciling,
                  ReplicaStatus replicas,
                  LedgerBinding binding,
                  SettlementSettings settings,
                  EvictionStatus eviction) {
        this.eviction = eviction;
        this.admission = admission;
        this.reconciling = reconciling;
        this.replicas = replicas;
        this.binding = binding;
        this.rule = new ResumeRule(settings.autoResume());
        this.resumeWait = settings.resumeWait();
    }

    /**
     * Halts sales while Redis may evict the sale's keys ({@link HaltReason.EvictionPolicy}); a halt of
     * Redis's is explained by it, an operator's stays theirs. A Redis that does not answer is judged by
     * the reservations themselves, not here. Run on its own schedule too (a resume check can spend
     * seconds in a reconciliation waiting for the database) and before every resume; returns whether unsafe.
     */
    boolean evictionUnsafe() {
        return evictionUnsafe(List.of(World.REAL));
    }

    /** {@link #evictionUnsafe()}, the policy read once, halting each of {@code worlds}. */
    boolean evictionUnsafe(List<World> worlds) {
        Optional<String> unsafe;
        try {
            unsafe = eviction.unsafePolicy();
        } catch (ReservationUnavailable e) {
            return false;
        }
        if (unsafe.isEmpty()) {
            return false;
        }
        HaltReason.EvictionPolicy why = new HaltReason.EvictionPolicy(unsafe.get());
        for (World world : worlds) {
            Optional<HaltReason> reason = admission.haltedBecause(world);
            if (reason.isEmpty()) {
                LOG.severe(() -> (world == World.REAL ? "" : "rehearsal ") + "sales halted: " + why.words());
                admission.halt(world, why);
            } else if (reason.get().arbiterInDoubt() && !reason.get().equals(why)) {
                admission.explainHalt(world, reason.get(), why);
            }
        }
        return true;
    }

    /** The real world's {@link #tryResume(World, boolean)}. */
    boolean tryResume(boolean operatorAsked) {
        return tryResume(World.REAL, operatorAsked);
    }

    /** Returns whether {@code world}'s sales are open afterwards. */
    boolean tryResume(World world, boolean operatorAsked) {
        if (world != World.REAL && admission.haltedBecause(world).isEmpty()) {
            // nothing to lift; the eviction policy is read on its own schedule for both worlds, not once more here
            return true;
        }
        Optional<String> foreign = world == World.REAL ? binding.foreign() : Optional.empty();
        if (foreign.isPresent()) {
            // the namespace is another ledger's (or nobody's): halt, whatever else is the matter, and stay so
            HaltReason.ForeignLedger why = new HaltReason.ForeignLedger(foreign.get());
            admission.halt(why);
            admission.haltedBecause().filter(reason -> !reason.equals(why))
                    .ifPresent(reason -> admission.explainHalt(reason, why));
            return false;
        }
        if (evictionUnsafe(List.of(world))) {
            return false;
        }
        var reason = admission.haltedBecause(world);
        if (reason.isEmpty()) {
            return true;
        }
        if (reason.get() instanceof HaltReason.EvictionPolicy) {
            // halted because Redis could evict: lifted only on noeviction read from every node, never
            // because the policy could not be read (an INFO refused, a node not answering)
            Optional<String> unread;
            try {
                unread = eviction.unsafeOrUnread();
            } catch (RuntimeException e) {
                unread = Optional.of("maxmemory-policy unread");
            }
            if (unread.isPresent()) {
                String what = unread.get();
                LOG.warning(() -> worldWords(world) + "sales stay halted: " + what + "; only noeviction read from every node lifts "
                        + reason.get().words());
                return false;
            }
        }
        if (!rule.mayTry(reason.get(), operatorAsked)) {
            return false;
        }
        try {
            Optional<HaltReason.NoReplica> missing = rule.missing(replicas.replicas());
            if (missing.isPresent()) {
                // resuming now would halt again at the next reservation: say what is missing instead
                if (reason.get().arbiterInDoubt() && !missing.get().equals(reason.get())) {
                    admission.explainHalt(world, reason.get(), missing.get());
                }
                return false;
            }
            // Redis answers again; what must be cleared is whether it still holds exactly what was
            // reserved: every live SKU's buckets balance against the ledger plus the events in flight
            // (counted exactly, so other instances may keep selling meanwhile)
            Optional<SkuReconciliation> blocking = rule.blocking(operatorAsked ? ownPass(world)
                    : reconciling.reconcileLive(world));
            if (blocking.isPresent()) {
                SkuReconciliation result = blocking.get();
                LOG.warning(() -> worldWords(world) + "sales stay halted: activity " + result.activityId() + " sku " + result.skuId()
                        + " reconciles " + result.state() + " " + result.detail());
                return false;
            }
        } catch (BulkheadException e) {
            // another reconciliation pass is running on this instance; the next check judges anew
            LOG.fine("resume check deferred: a reconciliation is already running");
            return false;
        } catch (RuntimeException e) {
            LOG.log(java.util.logging.Level.WARNING, worldWords(world) + "sales stay halted: the resume check failed", e);
            return false;
        }
        admission.resume(world);
        return true;
    }

    private static String worldWords(World world) {
        return world == World.REAL ? "" : "rehearsal ";
    }

    /**
     * The operator's own reconciliation pass: one already running on this instance (the minute's
     * schedule, the resume check, another operator) is waited for, up to
     * {@code seckill.settlement.resume-wait-seconds}, instead of refusing the resume as if something
     * were unsettled. Its figures are not borrowed: they may predate what the operator just saw.
     */
    private java.util.List<SkuReconciliation> ownPass(World world) {
        long deadline = System.nanoTime() + resumeWait.toNanos();
        while (true) {
            try {
                return reconciling.reconcileLive(world);
            } catch (BulkheadException running) {
                if (System.nanoTime() - deadline > 0) {
                    LOG.warning(() -> "resume refused: a reconciliation pass was still running on this instance after "
                            + resumeWait.toSeconds() + " s (seckill.settlement.resume-wait-seconds)");
                    throw running;
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw running;
                }
            }
        }
    }
}
