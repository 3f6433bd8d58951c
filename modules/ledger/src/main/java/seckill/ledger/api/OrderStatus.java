package seckill.ledger.api;

/** The status column of an order: 0 pending payment, 1 paid, 2 timed out. */
public enum OrderStatus {
    PENDING(0), PAID(1), TIMEOUT(2);

    private final int code;

    OrderStatus(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public static OrderStatus ofCode(int code) {
        for (OrderStatus status : values()) {
            if (status.code == code) {
                return status;
            }
        }
        throw new IllegalArgumentException("unknown order status " + code);
    }
}
