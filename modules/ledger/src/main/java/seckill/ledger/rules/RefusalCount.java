package seckill.ledger.rules;

/**
 * How many times the ledger itself may refuse a reservation before it is dead-lettered
 * ({@code seckill.ordering.max-deliveries}). Only refusals by the ledger count (bad data, a
 * constraint the order cannot satisfy); a database outage is no refusal and never counts, however
 * long it lasts, so an outage cannot turn a buyer's won reservation into a failure.
 */
public record RefusalCount(int maxRefusals) {

    /** What to do with a refused reservation. */
    public enum Next {
        /** Leave it pending: the next delivery tries again. */
        RETRY_LATER,
        /** Record its failure, give its stock back through the outbox, copy it to the dead letters. */
        DEAD_LETTER
    }

    public RefusalCount {
        if (maxRefusals < 1) {
            throw new IllegalArgumentException("seckill.ordering.max-deliveries must be >= 1");
        }
    }

    /** After the {@code refusals}-th refusal (counted in the ledger, this one included). */
    public Next after(int refusals) {
        return refusals < maxRefusals ? Next.RETRY_LATER : Next.DEAD_LETTER;
    }
}
