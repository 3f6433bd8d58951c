package seckill.system.ops;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;
import seckill.dev.api.DevServers;
import seckill.drill.api.DrillMain;
import seckill.redis.World;
import seckill.system.EdgeMarks;
import seckill.system.RealWorldDump;
import seckill.system.SaleFixture;
import seckill.system.SecondInstance;
import seckill.system.ServiceTest;
import seckill.system.ShadowDatabase;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.not;

/**
 * The switch drill with its probes in a shadow sale ({@code drill switches --rehearsal}, issue #34 items 1 and 3)
 * against two instances, each its own JVM, sharing one switches file, one Redis, the real database and a shadow one:
 * every hot switch's time to effect is reported on both instances, the probes buy (never reserving) in a rehearsal
 * the drill launches with the edge's signed mark and purges at its end, and every real key and row is as it was
 * ({@link RealWorldDump}). Without the launch switch the drill refuses (exit 3) and flips nothing.
 * <p>
 * Halt is per world (docs/rehearsal.md step 3): the drill's endpoint halt and resume are the rehearsal world's
 * ({@code ?world=rehearsal}; its resume reconciles the rehearsal's SKUs in the shadow tables), while the switches
 * file's {@code seckill.admission.halt} is the instance's and halts real sales too. The real world is still made
 * quiet first, as when the endpoint's halt was one state for both worlds: the sales the suite left open in this
 * database are ended (long enough ago that no reconciliation counts them live), the real settlement is off here
 * and on both instances. They must be ended: the switches file's flips are the instances' own, so the queue switch
 * moves the waiting line of every real sale open (tried with {@code --force} and the sales left open: the real lines'
 * {@code sk:{q:a<id>}:meta} ticks changed).
 */
@AddConfig(key = "seckill.settlement.enabled", value = "false")
class SwitchDrillRehearsalTest extends ServiceTest {

    private static final long BOUND_MILLIS = 2_000;
    private static final long RESUME_BOUND_MILLIS = 5_000;

    @Inject
    DevServers devServers;

    @Test
    void everySwitchIsTimedOnBothInstancesWhileARehearsalIsProbedAndTheRealWorldStaysAsItWas() throws Exception {
        endTheRealSalesLeftOpen();
        Path configDir = Files.createTempDirectory("switch-drill-rehearsal");
        String shipped = Files.readString(Path.of("../config/switches.yaml"));
        Files.writeString(configDir.resolve("switches.yaml"), shipped.replace("seckill.admission.token-required: true",
                "seckill.admission.token-required: false"));
        Path file = configDir.resolve("switches.yaml");
        byte[] fileBefore = Files.readAllBytes(file);
        Map<String, String> stores = SecondInstance.storesOf(config, devServers);
        ShadowDatabase shadow = ShadowDatabase.fresh(db, stores.get("SECKILL_DB_URL"));
        deleteRehearsalKeys();
        String[] settings = {"seckill.config.dir=" + configDir, "seckill.rehearsal.db.url=" + shadow.url(),
                "seckill.rehearsal.launch.enabled=true", "seckill.settlement.enabled=false",
                "seckill.rehearsal.settlement.enabled=true", "seckill.rehearsal.edge-key=" + EdgeMarks.KEY};
        Path report = Path.of("target", "switch-drill", "rehearsal");
        Files.deleteIfExists(Path.of(report + ".json"));
        try (SecondInstance first = SecondInstance.start(stores, db, settings);
             SecondInstance second = SecondInstance.start(stores, db, settings)) {
            RealWorldDump before = RealWorldDump.settled(redis, config);

            // no --force: with the real sales ended nothing is open, and the drill's own rehearsal does not count
            int exit = DrillMain.run(new String[] {"switches", "--instance", first.base().toString(), "--instance",
                    second.base().toString(), "--switches-file", file.toString(), "--admin-token", SaleFixture.ADMIN_TOKEN,
                    "--report", report.toString(), "--rehearsal", "--edge-key-file", edgeKeyFile().toString()});

            JsonObject json = read(report);
            String text = Files.readString(Path.of(report + ".txt"));
            System.out.println(text);
            assertThat(json.toString(), exit, is(0));
            assertThat(json.getString("verdict"), is("PASS"));
            assertThat("the switches file, byte for byte", Arrays.equals(Files.readAllBytes(file), fileBefore), is(true));
            long probe = json.getJsonNumber("probeActivity").longValue();
            assertThat(probe, greaterThanOrEqualTo(World.REHEARSAL_IDS_FROM));
            Set<String> measured = new TreeSet<>();
            for (JsonValue s : json.getJsonArray("switches")) {
                JsonObject sw = s.asJsonObject();
                measured.add(sw.getString("switch"));
                List<String> seen = new ArrayList<>();
                for (JsonValue e : sw.getJsonArray("effects")) {
                    JsonObject effect = e.asJsonObject();
                    seen.add(effect.getString("phase") + " " + effect.getString("instance"));
                    assertThat(effect.toString(), effect.getString("verdict"), is("PASS"));
                    long bound = sw.getString("how").equals("endpoint") && effect.getString("phase").equals("restore")
                            ? RESUME_BOUND_MILLIS : BOUND_MILLIS;
                    assertThat(effect.toString(), effect.getJsonNumber("valueMillis").longValue(), lessThanOrEqualTo(bound));
                    if (effect.getBoolean("probed")) {
                        assertThat(effect.toString(), effect.getJsonNumber("behaviourMillis").longValue(),
                                lessThanOrEqualTo(bound));
                    }
                }
                assertThat(sw.getString("switch"), new TreeSet<>(seen), is(new TreeSet<>(List.of("flip " + first.base(),
                        "flip " + second.base(), "restore " + first.base(), "restore " + second.base()))));
            }
            assertThat(measured, is(new TreeSet<>(List.of("seckill.admission.halt", "POST /api/v1/admin/sales/halt|resume",
                    "seckill.admission.global-rate", "seckill.admission.buyer-rate", "seckill.admission.sold-out-threshold",
                    "seckill.ordering.max-orders-per-second", "seckill.queue.enabled", "seckill.queue.rate"))));
            // the rehearsal's purchases showed the halt, the line and the global rate on both instances
            for (String probed : List.of("seckill.admission.halt", "POST /api/v1/admin/sales/halt|resume",
                    "seckill.admission.global-rate", "seckill.queue.enabled")) {
                long flipsProbed = json.getJsonArray("switches").stream().map(JsonValue::asJsonObject)
                        .filter(sw -> sw.getString("switch").equals(probed))
                        .flatMap(sw -> sw.getJsonArray("effects").stream().map(JsonValue::asJsonObject))
                        .filter(e -> e.getString("phase").equals("flip") && e.getBoolean("probed")).count();
                assertThat(probed, flipsProbed, is(2L));
            }
            assertThat(text, containsString("probe rehearsal " + probe + " purged"));

            // nothing of the rehearsal left; both instances sell again; every real key and row as it was
            assertThat(RealWorldDump.keys(redis, "rh:*").keySet().stream()
                    .filter(k -> k.matches(".*a" + probe + "[^0-9].*")).toList(), is(List.of()));
            SaleFixture here = new SaleFixture(target.getUri(), db);
            assertThat(here.count("SELECT COUNT(*) FROM " + shadow.name() + ".seckill_activity WHERE id = ?", probe), is(0L));
            for (SecondInstance instance : List.of(first, second)) {
                assertThat(new SaleFixture(instance.base(), db).salesState(), containsString("OPEN"));
            }
            RealWorldDump.of(redis, config).assertUnchangedSince(before);
        } finally {
            deleteRehearsalKeys();
            Files.deleteIfExists(file);
            Files.deleteIfExists(configDir);
        }
    }

    @Test
    void withoutTheLaunchSwitchTheDrillRefusesAndFlipsNothing() throws Exception {
        Path dir = Files.createTempDirectory("switch-drill-rehearsal-refused");
        Path file = dir.resolve("switches.yaml");
        Files.writeString(file, "seckill.admission.halt: false\n");
        Map<String, String> stores = SecondInstance.storesOf(config, devServers);
        ShadowDatabase shadow = ShadowDatabase.fresh(db, stores.get("SECKILL_DB_URL"));
        Path report = Path.of("target", "switch-drill", "rehearsal-refused");
        Files.deleteIfExists(Path.of(report + ".json"));
        try (SecondInstance instance = SecondInstance.start(stores, db, "seckill.config.dir=" + dir,
                "seckill.rehearsal.db.url=" + shadow.url(), "seckill.rehearsal.launch.enabled=false",
                "seckill.rehearsal.edge-key=" + EdgeMarks.KEY)) {
            int exit = DrillMain.run(new String[] {"switches", "--instance", instance.base().toString(), "--switches-file",
                    file.toString(), "--admin-token", SaleFixture.ADMIN_TOKEN, "--report", report.toString(), "--force",
                    "--rehearsal", "--edge-key-file", edgeKeyFile().toString()});
            assertThat(exit, is(3));
            assertThat(Files.readString(file), is("seckill.admission.halt: false\n"));
            assertThat(Files.exists(Path.of(report + ".json")), is(false));
            assertThat(new SaleFixture(instance.base(), db).salesState(), not(containsString("HALTED")));
            assertThat(new SaleFixture(target.getUri(), db).count("SELECT COUNT(*) FROM " + shadow.name()
                    + ".seckill_activity"), is(0L));
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
    }

    /**
     * Ends every real sale still open or recently ended in this database, its window moved four days back (beyond
     * {@code seckill.reservation.keys-outlive-end-seconds}, 3 days, so no reconciliation counts it live).
     */
    private void endTheRealSalesLeftOpen() {
        db.execute().dml("UPDATE seckill_activity SET starts_at = NOW() - INTERVAL 5 DAY, ends_at = NOW() - INTERVAL 4 DAY "
                + "WHERE ends_at > NOW() - INTERVAL 4 DAY");
    }

    private static Path edgeKeyFile() throws Exception {
        Path file = Files.createTempFile("edge", ".key");
        Files.writeString(file, EdgeMarks.KEY + "\n");
        return file;
    }

    private void deleteRehearsalKeys() {
        RealWorldDump.keys(redis, "rh:*").keySet().forEach(redis::del);
    }

    private static JsonObject read(Path report) throws Exception {
        try (JsonReader reader = Json.createReader(new StringReader(Files.readString(Path.of(report + ".json"))))) {
            return reader.readObject();
        }
    }
}
