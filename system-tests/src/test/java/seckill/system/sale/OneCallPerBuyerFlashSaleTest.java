package seckill.system.sale;

import io.helidon.microprofile.testing.junit5.AddConfig;

/**
 * The same flash sale with request coalescing switched off (it is on by default): one script call
 * per buyer for admission and for the reservation, and every answer and ledger figure the same.
 */
@AddConfig(key = "seckill.ordering.reclaim-idle-seconds", value = "3")
@AddConfig(key = "seckill.reservation.coalescing.enabled", value = "false")
class OneCallPerBuyerFlashSaleTest extends FlashSaleTest {

    @Override
    boolean coalescing() {
        return false;
    }
}
