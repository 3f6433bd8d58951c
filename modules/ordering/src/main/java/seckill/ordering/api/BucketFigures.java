package seckill.ordering.api;

/**
 * The ledger's units of one stock bucket of a SKU, told apart by the bucket named in each
 * reservation id: units ordered, units whose reservation failed for good, and refills already
 * applied to that bucket in Redis. Reconciliation compares them with the bucket's Redis counter.
 */
public record BucketFigures(int bucket, long orderedUnits, long failedUnits, long appliedRefillUnits) {
}
