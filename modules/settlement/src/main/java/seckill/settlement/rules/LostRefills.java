package seckill.settlement.rules;

import java.util.List;
import java.util.Set;

/**
 * Whether refills the ledger marked applied are missing from one bucket in Redis, and which to apply
 * again. A refill is marked applied only after Redis holds it (and its replicas acknowledged it), so
 * with the ledger read first and Redis after it, Redis's refilled units can only be at least the
 * ledger's: fewer means Redis lost refills, e.g. a master that died before its replicas had them.
 * A lost refill leaves the bucket balanced (its stock and its refilled units fell back together),
 * so only this comparison finds it. Plain Java: the figures are handed in.
 *
 * @param bucket             the bucket's index
 * @param ledgerAppliedUnits units of the bucket's refills marked applied, read before Redis
 * @param redisRefilledUnits units Redis says refills have put back into the bucket
 */
public record LostRefills(int bucket, long ledgerAppliedUnits, long redisRefilledUnits) {

    /** A refill marked applied in the ledger. */
    public record Applied(long refillId, String reservationId, int quantity) {
    }

    /** What the comparison found. */
    public sealed interface Finding {
    }

    /** Nothing lost. */
    public record None() implements Finding {
    }

    /** These refills are lost and account exactly for the missing units: apply them again. */
    public record Lost(List<Applied> refills, String detail) implements Finding {
    }

    /**
     * Units are missing but the refilled ids do not account for them (a refill still on its way to
     * being marked, a counter lost on its own): nothing is applied again on a guess; judged again.
     */
    public record Unexplained(String detail) implements Finding {
    }

    /** Whether the ids must be read at all: only when Redis holds fewer refilled units than the ledger. */
    public boolean suspected() {
        return redisRefilledUnits < ledgerAppliedUnits;
    }

    /**
     * The finding, given the refills the ledger marks applied now (read after Redis's units) and
     * those of them Redis's refilled set holds (read after the ledger).
     */
    public Finding judge(List<Applied> applied, Set<String> inRedis) {
        if (!suspected()) {
            return new None();
        }
        List<Applied> missing = applied.stream().filter(a -> !inRedis.contains(a.reservationId())).toList();
        long missingUnits = missing.stream().mapToLong(Applied::quantity).sum();
        long missingInRedis = ledgerAppliedUnits - redisRefilledUnits;
        String where = "bucket " + bucket + ": ";
        if (!missing.isEmpty() && missingUnits == missingInRedis) {
            return new Lost(missing, where + missing.size() + " refill(s) (" + missingUnits
                    + " unit(s)) marked applied in the ledger are missing from Redis; put back in the outbox");
        }
        return new Unexplained(where + "the ledger's applied refills " + ledgerAppliedUnits + " > Redis refilled "
                + redisRefilledUnits + ", and " + missing.size() + " refill(s) (" + missingUnits
                + " unit(s)) are missing from Redis's refilled ids");
    }
}
