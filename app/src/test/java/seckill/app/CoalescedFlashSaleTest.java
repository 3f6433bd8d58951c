package seckill.app;

import io.helidon.microprofile.testing.junit5.AddConfig;
import io.helidon.microprofile.testing.junit5.HelidonTest;

/**
 * The same flash sale with request coalescing on: concurrent buyers of one bucket share script
 * calls, and every answer and every ledger figure must be what one call per buyer gives.
 */
@HelidonTest
@AddConfig(key = "seckill.admin.token", value = SaleFixture.ADMIN_TOKEN)
@AddConfig(key = "seckill.ordering.reclaim-idle-seconds", value = "3")
@AddConfig(key = "seckill.reservation.coalescing.enabled", value = "true")
class CoalescedFlashSaleTest extends FlashSaleTest {
}
