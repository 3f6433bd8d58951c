--liquibase formatted sql

--changeset settlement:2-payment
--comment: every payment callback that was accepted, keyed by the payment side's id
CREATE TABLE seckill_payment (
    payment_id  VARCHAR(64)    NOT NULL,
    order_no    CHAR(24)       NOT NULL,
    amount      DECIMAL(14, 2) NOT NULL,
    paid_at     DATETIME(3)    NOT NULL COMMENT 'UTC, as the payment side reports it',
    outcome     VARCHAR(16)    NOT NULL COMMENT 'PAID, ORDER_EXPIRED, DUPLICATE',
    received_at DATETIME(3)    NOT NULL COMMENT 'UTC',
    PRIMARY KEY (payment_id),
    KEY idx_payment_order (order_no)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

--changeset settlement:2-reconciliation
CREATE TABLE seckill_reconciliation (
    id           BIGINT        NOT NULL AUTO_INCREMENT,
    activity_id  BIGINT        NOT NULL,
    sku_id       BIGINT        NOT NULL,
    checked_at   DATETIME(3)   NOT NULL COMMENT 'UTC',
    state        VARCHAR(16)   NOT NULL COMMENT 'CLEAN, MISMATCH, OVERSOLD, IN_FLIGHT',
    figures      VARCHAR(1000) NOT NULL,
    detail       VARCHAR(1000) NULL,
    PRIMARY KEY (id),
    KEY idx_reconciliation_sku (activity_id, sku_id, id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

--changeset settlement:3-figures-per-bucket
--comment: a SKU split over up to 64 buckets adds two figures per bucket
ALTER TABLE seckill_reconciliation MODIFY figures TEXT NOT NULL;

--changeset settlement:4-payment-currency
--comment: the currency the payment side reported (checked equal to the price's); rows written before it have none. The table is written by the ledger's payment transaction (ordering's SQL) with the order's status, and its primary key is what keeps one payment id to one order
ALTER TABLE seckill_payment ADD COLUMN currency CHAR(3) NULL AFTER amount;

--changeset settlement:5-payment-id-case-sensitive
--comment: payment ids are case-sensitive (A-Z and a-z): under the table's case-insensitive default collation 'ch_A' and 'ch_a' were one key, so a second, different payment was refused or lost its audit row. Binary collation on the key and on the order's copy
ALTER TABLE seckill_payment MODIFY payment_id VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL;
ALTER TABLE seckill_order MODIFY payment_id VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL;
