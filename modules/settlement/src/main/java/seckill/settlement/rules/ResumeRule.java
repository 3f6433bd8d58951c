package seckill.settlement.rules;

import java.util.List;
import java.util.Optional;

import seckill.admission.api.HaltReason;
import seckill.reservation.api.Replicas;
import seckill.settlement.api.SkuReconciliation;

/**
 * When halted sales may open again. A halt because the arbiter was in doubt is lifted by settlement
 * itself (unless {@code seckill.settlement.auto-resume=false}) once every live SKU reconciles clean;
 * an operator's halt only when an operator asks, and then on the same evidence. A SKU whose stock is
 * not in Redis blocks nothing: it answers NOT_READY until an operator preheats it. Whatever the
 * reason, sales never open while the master has fewer replicas online than a reservation must
 * reach: each reservation would be in doubt and halt them again.
 */
public record ResumeRule(boolean autoResume) {

    /** Whether it is worth reconciling at all: someone may lift this halt now. */
    public boolean mayTry(HaltReason reason, boolean operatorAsked) {
        return operatorAsked || autoResume && reason.arbiterInDoubt();
    }

    /**
     * What is missing for sales to run at all: fewer replicas online than required. A halt of
     * Redis's ({@link HaltReason#arbiterInDoubt()}) is then explained by it; an operator's stays theirs.
     */
    public Optional<HaltReason.NoReplica> missing(Replicas replicas) {
        return replicas.enough() ? Optional.empty()
                : Optional.of(new HaltReason.NoReplica(replicas.online(), replicas.required()));
    }

    /** The first SKU that keeps sales halted, or empty when the results allow resuming. */
    public Optional<SkuReconciliation> blocking(List<SkuReconciliation> results) {
        return results.stream().filter(r -> !r.clean() && !"NOT_PREHEATED".equals(r.state())).findFirst();
    }
}
