package seckill.system.ops;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import seckill.dev.api.DevServers;
import seckill.system.EdgeMarks;
import seckill.system.RealWorldDump;
import seckill.system.SaleFixture;
import seckill.system.SecondInstance;
import seckill.system.SentinelTopology;
import seckill.system.ServiceTest;
import seckill.system.ShadowDatabase;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * Issue #34's drill promise, attacked: {@code drill rehearse --rehearsal} purges the rehearsal it launched also
 * when it is stopped mid-run (SIGTERM, as Ctrl-C or a stopped job would). On main the purge is in a
 * {@code finally} of {@code Ramp.run}, which a SIGTERM skips (the JVM runs only shutdown hooks): the rehearsal's
 * shadow rows and rh: keys stay behind. Failed on main (the rehearsal's row left in the shadow catalogue).
 */
@AddConfig(key = "seckill.settlement.enabled", value = "false")
class RampKilledRehearsalTest extends ServiceTest {

    @Inject
    DevServers devServers;

    @Test
    void aRampStoppedMidRunPurgesTheRehearsalItLaunched() throws Exception {
        Map<String, String> stores = SecondInstance.storesOf(config, devServers);
        ShadowDatabase shadow = ShadowDatabase.fresh(db, stores.get("SECKILL_DB_URL"));
        Path keyFile = Files.createTempFile("edge", ".key");
        Files.writeString(keyFile, EdgeMarks.KEY + "\n");
        Path dir = Files.createTempDirectory("ramp-killed");
        // every rh: key (only rehearsals write them): any an earlier test left
        RealWorldDump.keys(redis, "rh:*").keySet().forEach(redis::del);
        try (SecondInstance on = SecondInstance.start(stores, db, "seckill.rehearsal.db.url=" + shadow.url(),
                "seckill.rehearsal.launch.enabled=true", "seckill.settlement.enabled=false",
                "seckill.rehearsal.settlement.enabled=true", "seckill.admission.token-required=false",
                "seckill.rehearsal.edge-key=" + EdgeMarks.KEY)) {
            SaleFixture sale = new SaleFixture(on.base(), db);
            RealWorldDump before = RealWorldDump.settled(redis, config);
            List<String> command = new ArrayList<>(SecondInstance.javaOnTestClassPath());
            command.addAll(List.of("seckill.app.SeckillMain", "drill", "rehearse",
                    "--url", on.base().toString(), "--target-rate", "10", "--steps", "10", "--step-seconds", "6",
                    "--report", dir.toString(), "--admin-token", SaleFixture.ADMIN_TOKEN, "--rehearsal",
                    "--edge-key-file", keyFile.toString()));
            ProcessBuilder builder = new ProcessBuilder(command);
            builder.environment().putAll(stores);
            Path log = Files.createTempFile("ramp-killed", ".log");
            Process drill = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                SaleFixture.await("the drill's rehearsal bought", Duration.ofSeconds(80), () -> !drill.isAlive()
                        || (sale.count("SELECT COUNT(*) FROM " + shadow.name() + ".seckill_activity") > 0
                        && redis.keys("rh:{a*}:buyers").stream().anyMatch(k -> redis.hlen(k) > 1)));
                assertThat(Files.readString(log), drill.isAlive(), is(true));
                SentinelTopology.signal("TERM", drill.pid());
                assertThat(drill.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), is(true));
            } finally {
                drill.destroyForcibly();
            }
            String printed = Files.readString(log);
            System.out.println(printed);
            try {
                assertThat(printed, sale.count("SELECT COUNT(*) FROM " + shadow.name() + ".seckill_activity"), is(0L));
                assertThat(RealWorldDump.keys(redis, "rh:{a*").keySet().stream().toList(), is(List.of()));
                RealWorldDump.of(redis, config).assertUnchangedSince(before);
            } finally {
                // what main leaves: purged here so later tests start clean
                for (String id : sale.column("SELECT id FROM " + shadow.name() + ".seckill_activity")) {
                    sale.send(java.net.http.HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/activities/" + id))
                            .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).DELETE());
                }
            }
        }
    }
}
