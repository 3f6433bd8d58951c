--liquibase formatted sql

--changeset ordering:1-activity
CREATE TABLE seckill_activity (
    id                     BIGINT       NOT NULL AUTO_INCREMENT,
    name                   VARCHAR(200) NOT NULL,
    starts_at              DATETIME(3)  NOT NULL,
    ends_at                DATETIME(3)  NOT NULL,
    payment_window_seconds INT          NOT NULL,
    created_at             DATETIME(3)  NOT NULL,
    PRIMARY KEY (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

--changeset ordering:1-stock
CREATE TABLE seckill_stock (
    activity_id    BIGINT NOT NULL,
    sku_id         BIGINT NOT NULL,
    total          BIGINT NOT NULL,
    available      BIGINT NOT NULL,
    per_user_limit INT    NOT NULL,
    buckets        INT    NOT NULL DEFAULT 1,
    PRIMARY KEY (activity_id, sku_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

--changeset ordering:1-order
CREATE TABLE seckill_order (
    id             BIGINT      NOT NULL AUTO_INCREMENT,
    order_no       CHAR(24)    NOT NULL,
    reservation_id VARCHAR(64) NOT NULL,
    request_id     VARCHAR(64) NOT NULL,
    activity_id    BIGINT      NOT NULL,
    sku_id         BIGINT      NOT NULL,
    user_id        BIGINT      NOT NULL,
    quantity       INT         NOT NULL,
    status         TINYINT     NOT NULL DEFAULT 0 COMMENT '0 pending, 1 paid, 2 timeout',
    expire_at      DATETIME(3) NOT NULL COMMENT 'UTC',
    created_at     DATETIME(3) NOT NULL COMMENT 'UTC',
    updated_at     DATETIME(3) NOT NULL COMMENT 'UTC',
    PRIMARY KEY (id),
    UNIQUE KEY uk_order_buyer (activity_id, user_id, sku_id),
    UNIQUE KEY uk_order_no (order_no),
    UNIQUE KEY uk_order_reservation (reservation_id),
    UNIQUE KEY uk_order_request (request_id),
    KEY idx_order_status_expire (status, expire_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

--changeset ordering:1-stock-log
CREATE TABLE seckill_stock_log (
    id          BIGINT      NOT NULL AUTO_INCREMENT,
    activity_id BIGINT      NOT NULL,
    sku_id      BIGINT      NOT NULL,
    change_type TINYINT     NOT NULL COMMENT '1 deduct, 2 refill',
    quantity    INT         NOT NULL,
    biz_id      VARCHAR(64) NOT NULL COMMENT 'reservation id',
    created_at  DATETIME(3) NOT NULL COMMENT 'UTC',
    PRIMARY KEY (id),
    UNIQUE KEY uk_stock_log_biz (biz_id, change_type),
    KEY idx_stock_log_sku (activity_id, sku_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

--changeset ordering:1-failure
CREATE TABLE seckill_reservation_failure (
    reservation_id VARCHAR(64)  NOT NULL,
    activity_id    BIGINT       NOT NULL,
    sku_id         BIGINT       NOT NULL,
    user_id        BIGINT       NOT NULL,
    quantity       INT          NOT NULL,
    reason         VARCHAR(200) NOT NULL,
    failed_at      DATETIME(3)  NOT NULL COMMENT 'UTC',
    PRIMARY KEY (reservation_id),
    KEY idx_failure_sku (activity_id, sku_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

--changeset ordering:2-request-id-scope
--comment: request_id holds "<activityId>:<userId>:<client requestId>" so one client's id can never collide with another buyer's
ALTER TABLE seckill_order MODIFY request_id VARCHAR(128) NOT NULL;

--changeset ordering:3-outbox
--comment: refills to apply to Redis, written in the same transaction as the ledger change they mirror
CREATE TABLE stock_sync_outbox (
    id             BIGINT      NOT NULL AUTO_INCREMENT,
    activity_id    BIGINT      NOT NULL,
    sku_id         BIGINT      NOT NULL,
    bucket         INT         NOT NULL,
    reservation_id VARCHAR(64) NOT NULL,
    user_id        BIGINT      NOT NULL,
    quantity       INT         NOT NULL,
    change_type    TINYINT     NOT NULL COMMENT '2 refill',
    release_buyer  TINYINT     NOT NULL COMMENT '1 the buyer may reserve again',
    status         TINYINT     NOT NULL DEFAULT 0 COMMENT '0 new, 1 applied to Redis',
    attempts       INT         NOT NULL DEFAULT 0,
    created_at     DATETIME(3) NOT NULL COMMENT 'UTC',
    applied_at     DATETIME(3) NULL COMMENT 'UTC',
    PRIMARY KEY (id),
    UNIQUE KEY uk_outbox_biz (reservation_id, change_type),
    KEY idx_outbox_status (status, id),
    KEY idx_outbox_sku (activity_id, sku_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

--changeset ordering:4-order-payment
ALTER TABLE seckill_order ADD COLUMN payment_id VARCHAR(64) NULL, ADD COLUMN paid_at DATETIME(3) NULL COMMENT 'UTC';

--changeset ordering:5-rejection
--comment: how often the ledger itself refused a reservation (bad data, a constraint it cannot satisfy); database outages never count here. Dead-lettering is decided on this count.
CREATE TABLE seckill_reservation_rejection (
    reservation_id VARCHAR(64)  NOT NULL,
    attempts       INT          NOT NULL,
    last_reason    VARCHAR(200) NOT NULL,
    updated_at     DATETIME(3)  NOT NULL COMMENT 'UTC',
    PRIMARY KEY (reservation_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

--changeset ordering:6-event-position
--comment: the position of the reservation's event in its bucket's stream (entry id ms * 1000000 + seq), so reconciliation can take the ledger as of a Redis snapshot: exactly the events the snapshot had seen
ALTER TABLE seckill_order ADD COLUMN event_position BIGINT NULL;
ALTER TABLE seckill_reservation_failure ADD COLUMN event_position BIGINT NULL;

--changeset ordering:7-activity-request
--comment: Idempotency-Key of each activity creation, so a retried request returns the activity it created instead of a second one
CREATE TABLE seckill_activity_request (
    idempotency_key VARCHAR(200) NOT NULL,
    fingerprint     CHAR(64)     NOT NULL COMMENT 'SHA-256 of the request body',
    activity_id     BIGINT       NOT NULL,
    created_at      DATETIME(3)  NOT NULL COMMENT 'UTC',
    PRIMARY KEY (idempotency_key)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

--changeset ordering:8-ledger-identity
--comment: the ledger's own id, made once when the schema is created; the Redis namespace is bound to it at first start, so an instance over another ledger refuses to start instead of taking this one's events for unknown
CREATE TABLE seckill_ledger (
    id         TINYINT     NOT NULL,
    ledger_id  CHAR(36)    NOT NULL,
    created_at DATETIME(3) NOT NULL COMMENT 'UTC',
    PRIMARY KEY (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
INSERT INTO seckill_ledger (id, ledger_id, created_at) VALUES (1, UUID(), UTC_TIMESTAMP(3));

--changeset ordering:9-order-number
--comment: the ledger's own counter of order numbers, for an order whose number derived from its reservation is another order's already (equal sequences in two buckets or SKUs); a row commits with its order, so a number is never handed out twice
CREATE TABLE seckill_order_number (
    id             BIGINT      NOT NULL AUTO_INCREMENT,
    reservation_id VARCHAR(64) NOT NULL,
    created_at     DATETIME(3) NOT NULL COMMENT 'UTC',
    PRIMARY KEY (id),
    KEY idx_order_number_reservation (reservation_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;

--changeset ordering:10-ledger-bound
--comment: when this ledger first bound a Redis namespace; a namespace whose binding was lost while it holds a sale's data is taken again only by a ledger that bound one before, never by an empty ledger (a ledger in use already bound its namespace at its first start)
ALTER TABLE seckill_ledger ADD COLUMN bound_at DATETIME(3) NULL COMMENT 'UTC';
UPDATE seckill_ledger SET bound_at = created_at WHERE EXISTS (SELECT 1 FROM seckill_activity);

--changeset ordering:11-sku-showing
--comment: what the buyer is shown of a SKU (issue #33): a name (plain text), a flash price (exact amount and ISO 4217 currency) and a picture (a file name in seckill.pictures.dir); all NULL for SKUs created without them. The order keeps the unit price it was sold at, copied from its stock row when the ordering worker writes it; a payment must equal it times the quantity.
ALTER TABLE seckill_stock ADD COLUMN name VARCHAR(100) NULL, ADD COLUMN price_amount DECIMAL(14, 2) NULL,
    ADD COLUMN price_currency CHAR(3) NULL, ADD COLUMN picture VARCHAR(100) NULL;
ALTER TABLE seckill_order ADD COLUMN price_amount DECIMAL(14, 2) NULL, ADD COLUMN price_currency CHAR(3) NULL;

--changeset ordering:12-line-turn-left
--comment: the waiting line's turns that ran out unused and that the buyer left by joining the line again (issue #33): the highest such place per buyer and activity. Outlives the line's Redis keys, so after they are lost a ticket naming that place or an earlier one (replaced by the ticket of the new place) gives back no place ahead of buyers who never had a turn. Written only when such a buyer joins again (rare, at most one row write per pass given), read only for a ticket of a buyer Redis lost
CREATE TABLE seckill_line_turn_left (
    activity_id BIGINT      NOT NULL,
    user_id     BIGINT      NOT NULL,
    place       BIGINT      NOT NULL COMMENT 'the line place whose turn ran out unused; tickets naming it or an earlier one are replaced',
    left_at     DATETIME(3) NOT NULL COMMENT 'UTC',
    PRIMARY KEY (activity_id, user_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
