package seckill.ledger.api;

/**
 * The ledger's units of one stock bucket of a SKU, told apart by the bucket named in each
 * reservation id: units ordered, units whose reservation failed for good, refills already applied to
 * that bucket in Redis, and the position ({@code EventPosition.ordinal()}) of the last event the
 * ledger recorded from the bucket's stream (0 when none).
 */
public record BucketFigures(int bucket, long orderedUnits, long failedUnits, long appliedRefillUnits, long lastEvent) {
}
