package seckill.app;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import io.helidon.dbclient.DbClient;
import io.helidon.microprofile.testing.junit5.AddConfig;
import io.helidon.microprofile.testing.junit5.HelidonTest;
import jakarta.inject.Inject;
import jakarta.ws.rs.client.WebTarget;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.UnifiedJedis;
import seckill.app.drill.Drill;
import seckill.app.drill.DrillOptions;
import seckill.ordering.api.OrderingSwitch;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;

/** A small drill with the worker-restart fault ends with every invariant holding. */
@HelidonTest
@AddConfig(key = "seckill.admin.token", value = SaleFixture.ADMIN_TOKEN)
@AddConfig(key = "seckill.ordering.reclaim-idle-seconds", value = "3")
class DrillTest {

    @Inject
    WebTarget target;

    @Inject
    DbClient db;

    @Inject
    UnifiedJedis redis;

    @Inject
    OrderingSwitch ordering;

    @Test
    void aDrillWithRestartedWorkersStaysSound() throws Exception {
        Path json = Files.createTempFile("drill", ".json");
        DrillOptions options = DrillOptions.parse(new String[] {"--buyers", "1500", "--stock", "150", "--skus", "2",
                "--clicks", "2", "--concurrency", "100", "--fault", "restart-workers", "--json", json.toString(),
                "--settle-timeout", "60"});
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        Drill drill = new Drill(options, target.getUri(), SaleFixture.ADMIN_TOKEN, db, redis, ordering,
                new PrintStream(printed, true, StandardCharsets.UTF_8));
        assertThat(drill.run(), empty());
        String report = printed.toString(StandardCharsets.UTF_8);
        assertThat(report, containsString("FAULT ordering workers restarted"));
        assertThat(report, containsString("invariants    OK"));
        assertThat(ordering.running(), is(true));
        String written = Files.readString(json);
        // two SKUs of 150 units and more buyers than units: every unit is reserved and ordered
        assertThat(written, containsString("\"reservations\":300"));
        assertThat(written, containsString("\"orders\":300"));
    }

    @Test
    void badOptionsAreRefused() {
        for (String[] args : new String[][] {{"--buyers"}, {"--buyers", "0"}, {"--nope", "1"}, {"--fault", "boom"}}) {
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> DrillOptions.parse(args));
        }
    }
}
