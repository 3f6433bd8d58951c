package seckill.admission.api;

/**
 * The admission module's door: judge an attempt cheaply, in memory where possible, and learn from
 * reservation results (a SKU seen sold out is answered locally from then on).
 */
public interface Admission {

    AdmissionDecision admit(PurchaseAttempt attempt);

    /** Records that reservation found the SKU sold out. */
    void soldOut(long activityId, long skuId);

    /** Withdraws a sold-out flag (stock came back). */
    void restocked(long activityId, long skuId);

    /** Whether this instance currently answers the SKU as sold out without asking Redis. */
    boolean isFlaggedSoldOut(long activityId, long skuId);
}
