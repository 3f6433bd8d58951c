package seckill.app.sale;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

import seckill.ledger.api.LedgerTrace;
import seckill.reservation.api.RedisTrace;
import seckill.settlement.api.SkuReconciliation;

/**
 * Support's answer on one reservation: what each layer holds (Redis: the buyer's record, the minted
 * id, the stream entry, the refill; the ledger: order, payment, failure, refusals, refill; the SKU's
 * latest reconciliation) and the verdict drawn from them.
 *
 * @param mintedAt when the id was minted, by the minting instance's clock
 * @param buckets  how many Redis buckets the SKU's stock is split into
 */
public record ReservationTrace(String reservationId, long activityId, long skuId, int bucket, int buckets,
                               Instant mintedAt, OptionalLong buyer, RedisTrace redis, LedgerTrace ledger,
                               Optional<SkuReconciliation> reconciliation, TraceVerdict.Verdict verdict) {
}
