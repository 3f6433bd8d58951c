--liquibase formatted sql

--changeset settlement:1-outbox
CREATE TABLE stock_sync_outbox (
    id             BIGINT      NOT NULL AUTO_INCREMENT,
    activity_id    BIGINT      NOT NULL,
    sku_id         BIGINT      NOT NULL,
    bucket         INT         NOT NULL,
    reservation_id VARCHAR(64) NOT NULL,
    user_id        BIGINT      NOT NULL,
    quantity       INT         NOT NULL,
    change_type    TINYINT     NOT NULL COMMENT '2 refill',
    status         TINYINT     NOT NULL DEFAULT 0 COMMENT '0 new, 1 applied to Redis',
    attempts       INT         NOT NULL DEFAULT 0,
    created_at     DATETIME(3) NOT NULL COMMENT 'UTC',
    applied_at     DATETIME(3) NULL COMMENT 'UTC',
    PRIMARY KEY (id),
    UNIQUE KEY uk_outbox_biz (reservation_id, change_type),
    KEY idx_outbox_status (status, id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
