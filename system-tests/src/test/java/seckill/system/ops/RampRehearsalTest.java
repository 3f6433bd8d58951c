package seckill.system.ops;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import javax.xml.parsers.DocumentBuilderFactory;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.inject.Inject;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import seckill.client.RehearsalMark;
import seckill.dev.api.DevServers;
import seckill.drill.api.DrillMain;
import seckill.drill.api.Ramp;
import seckill.drill.api.RampOptions;
import seckill.redis.World;
import seckill.system.EdgeMarks;
import seckill.system.MetricSamples;
import seckill.system.RealWorldDump;
import seckill.system.SaleFixture;
import seckill.system.SecondInstance;
import seckill.system.ServiceTest;
import seckill.system.ShadowDatabase;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

/**
 * The ramp as a shadow sale ({@code drill rehearse --rehearsal}, issue #34 items 1 and 2) against two running
 * instances over one Redis, the real database and a shadow one: the ramp launches its own rehearsal, spreads its
 * buyers over both instances with the edge's signed mark, names the layer that gave first with its figures and
 * chart, and purges the rehearsal; every real key and row is dumped before and after ({@link RealWorldDump}) and
 * found equal, and no {@code rh:} key or shadow row of the rehearsal is left. A deployment whose launch switch is
 * off answers {@code 501}: the drill exits 3 and creates nothing.
 * <p>
 * The real world is kept quiet meanwhile, as in {@code RehearsalDoneTest}: the real settlement is off here and on
 * both instances, the rehearsals' settlement on.
 */
@AddConfig(key = "seckill.settlement.enabled", value = "false")
class RampRehearsalTest extends ServiceTest {

    private static final long SKU = 3407;
    private static final long BUYER = 340_701;

    @Inject
    DevServers devServers;

    private String[] settings(ShadowDatabase shadow, boolean launch, String... more) {
        List<String> all = new java.util.ArrayList<>(List.of("seckill.rehearsal.db.url=" + shadow.url(),
                "seckill.rehearsal.launch.enabled=" + launch, "seckill.settlement.enabled=false",
                "seckill.rehearsal.settlement.enabled=true", "seckill.admission.token-required=false",
                "seckill.rehearsal.edge-key=" + EdgeMarks.KEY));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    private static Path edgeKeyFile() throws Exception {
        Path file = Files.createTempFile("edge", ".key");
        Files.writeString(file, EdgeMarks.KEY + "\n");
        return file;
    }

    @Test
    void aRampOfARehearsalOnTwoInstancesNamesItsLayerAndLeavesNothingOfItAndTheRealWorldAsItWas() throws Exception {
        // the client's signer makes the edge's mark, as the tests' edge does
        long t = Instant.now().getEpochSecond();
        assertThat(new RehearsalMark(EdgeMarks.KEY).sign(World.REHEARSAL_IDS_FROM + 3, 77, Instant.ofEpochSecond(t)),
                is(EdgeMarks.mark(World.REHEARSAL_IDS_FROM + 3, 77, t)));

        SaleFixture here = new SaleFixture(target.getUri(), db);
        // a real sale with an order, so the dump holds keys and rows of every kind a sale has
        long real = here.createOpenActivity(SKU, 5, 1);
        assertThat(here.purchaseRetrying(real, BUYER, SKU, 1, "ramp-real-1").statusCode(), is(202));
        SaleFixture.await("the real order", Duration.ofSeconds(30), () -> here.orders(real) == 1);
        SaleFixture.await("the real order's event acknowledged", Duration.ofSeconds(30),
                () -> redis.xpending("sk:{a" + real + ":s" + SKU + ":b0}:events", "ordering").getTotal() == 0);

        Map<String, String> stores = SecondInstance.storesOf(config, devServers);
        ShadowDatabase shadow = ShadowDatabase.fresh(db, stores.get("SECKILL_DB_URL"));
        deleteRehearsalKeys();
        Path dir = Files.createTempDirectory("ramp-rehearsal");
        // a global admission rate of 6 a second (the rehearsal's own leases, rh: keys) against steps of 3, 8, 13 and 18
        String[] settings = settings(shadow, true, "seckill.admission.global-rate=6");
        try (SecondInstance first = SecondInstance.start(stores, db, settings);
             SecondInstance second = SecondInstance.start(stores, db, settings)) {
            RealWorldDump before = RealWorldDump.settled(redis, config);
            assertThat(before.tables().get("seckill_order").isEmpty(), is(false));
            MetricSamples realBefore = realFigures(first, second);

            // bounds other than admission's are wide: the machine is shared, the test is about the rehearsal
            RampOptions options = RampOptions.parse(new String[] {"--url", first.base().toString(), "--url",
                    second.base().toString(), "--target-rate", "12", "--steps", "4", "--step-seconds", "3",
                    "--report", dir.toString(), "--metrics", first.base().resolve("/metrics").toString(),
                    "--metrics", second.base().resolve("/metrics").toString(), "--p99-bound-ms", "3000",
                    "--db-wait-bound-ms", "2000", "--admin-token", SaleFixture.ADMIN_TOKEN, "--rehearsal",
                    "--edge-key-file", edgeKeyFile().toString()});
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            JsonObject report = new Ramp(options, SaleFixture.ADMIN_TOKEN,
                    config.getOptionalValue("seckill.redis.uri", String.class), Optional.empty(),
                    new PrintStream(printed, true, StandardCharsets.UTF_8)).run();
            String text = printed.toString(StandardCharsets.UTF_8);
            System.out.println(text);

            long rehearsal = report.getJsonNumber("activityId").longValue();
            assertThat(rehearsal, greaterThanOrEqualTo(World.REHEARSAL_IDS_FROM));
            assertThat(report.getString("world"), is("rehearsal"));

            // every request counted under one answer; the 202s are the rehearsal's reservations, as both instances
            // counted them (world="rehearsal"), none of them a real one
            long reserved = 0;
            var steps = report.getJsonArray("steps");
            assertThat(steps.size(), is(4));
            for (JsonValue value : steps) {
                JsonObject step = value.asJsonObject();
                long counted = step.getJsonObject("answers").values().stream()
                        .mapToLong(v -> ((JsonNumber) v).longValue()).sum();
                assertThat("step " + step.getInt("step"), counted, is(step.getJsonNumber("sent").longValue()));
                assertThat(step.toString(), step.getJsonObject("answers").getJsonNumber("other").longValue(), is(0L));
                reserved += step.getJsonObject("answers").getJsonNumber("202").longValue();
                // Redis was read; the rehearsal's backlog from its own streams
                assertThat(step.getJsonObject("redis").getJsonNumber("scriptCalls").longValue(), greaterThan(0L));
                assertThat(step.toString(), step.getJsonObject("stream").isNull("backlogEnd"), is(false));
            }
            assertThat(reserved, greaterThan(0L));
            MetricSamples firstFigures = MetricSamples.of(new SaleFixture(first.base(), db));
            MetricSamples secondFigures = MetricSamples.of(new SaleFixture(second.base(), db));
            double counted = firstFigures.sum("seckill_purchases_total", "outcome=\"reserved\"", "world=\"rehearsal\"")
                    + secondFigures.sum("seckill_purchases_total", "outcome=\"reserved\"", "world=\"rehearsal\"");
            assertThat(counted, is((double) reserved));
            // both instances took the ramp's buyers
            assertThat(firstFigures.sum("seckill_purchases_total", "world=\"rehearsal\""), greaterThan(0.0));
            assertThat(secondFigures.sum("seckill_purchases_total", "world=\"rehearsal\""), greaterThan(0.0));
            assertThat(realFigures(first, second).where(s -> true), is(realBefore.where(s -> true)));
            // the rehearsal's orders were read from its own series
            assertThat(report.toString(), steps.stream().anyMatch(s -> !s.asJsonObject().isNull("ordersPerSecond")
                    && s.asJsonObject().getJsonNumber("ordersPerSecond").doubleValue() > 0), is(true));

            // the first layer to give, with its figures, or the report says none gave
            String verdict = report.getString("verdict");
            if (report.isNull("firstToGive")) {
                assertThat(verdict, containsString("no layer shed or saturated"));
            } else {
                JsonObject first1 = report.getJsonObject("firstToGive");
                assertThat(first1.getString("layer"), not(is("")));
                assertThat(first1.getString("evidence"), not(is("")));
                assertThat(first1.getJsonNumber("offeredRate").doubleValue(), greaterThan(0.0));
                assertThat(verdict, containsString(first1.getString("layer") + " " + first1.getString("how") + " first"));
            }
            // the global rate of 6 a second is met by the rehearsal: admission sheds at some step
            assertThat(report.toString(), report.getJsonObject("layers").isNull("admission"), is(false));
            assertThat(Files.readString(dir.resolve("ramp.txt")), containsString("first to give: " + verdict));
            Document svg = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(dir.resolve("ramp.svg").toFile());
            assertThat(svg.getDocumentElement().getTagName(), is("svg"));
            assertThat(svg.getElementsByTagName("circle").getLength(), greaterThan(0));
            assertThat(text, containsString("rehearsal " + rehearsal + " purged"));

            // purged: no rh: key and no shadow row of it
            assertThat(rehearsalKeys(rehearsal), is(List.of()));
            assertThat(redis.zrange("rh:streams", 0, -1).stream().anyMatch(s -> s.contains("{a" + rehearsal + ":")),
                    is(false));
            for (String table : List.of("seckill_activity WHERE id = ?", "seckill_stock WHERE activity_id = ?",
                    "seckill_order WHERE activity_id = ?", "seckill_stock_log WHERE activity_id = ?",
                    "seckill_reservation_failure WHERE activity_id = ?", "stock_sync_outbox WHERE activity_id = ?",
                    "seckill_reconciliation WHERE activity_id = ?", "seckill_activity_request WHERE activity_id = ?")) {
                assertThat(table, here.count("SELECT COUNT(*) FROM " + shadow.name() + "." + table, rehearsal), is(0L));
            }
            assertThat(here.count("SELECT COUNT(*) FROM " + shadow.name() + ".seckill_order_number WHERE reservation_id "
                    + "LIKE CONCAT(?, '-%')", Long.toString(rehearsal)), is(0L));

            // every real key and row as it was
            RealWorldDump.of(redis, config).assertUnchangedSince(before);
        } finally {
            deleteRehearsalKeys();
        }
    }

    @Test
    void withoutTheLaunchSwitchTheRampExits3AndCreatesNothing() throws Exception {
        Map<String, String> stores = SecondInstance.storesOf(config, devServers);
        ShadowDatabase shadow = ShadowDatabase.fresh(db, stores.get("SECKILL_DB_URL"));
        deleteRehearsalKeys();
        Path dir = Files.createTempDirectory("ramp-refused");
        try (SecondInstance instance = SecondInstance.start(stores, db, settings(shadow, false))) {
            RealWorldDump before = RealWorldDump.settled(redis, config);
            // the instance's own binding of the rh: namespace (rh:ledger) is written at its start
            Map<String, String> rehearsalKeysBefore = RealWorldDump.keys(redis, "rh:*");

            int exit = DrillMain.run(new String[] {"rehearse", "--url", instance.base().toString(), "--target-rate", "5",
                    "--steps", "2", "--step-seconds", "1", "--report", dir.toString(), "--admin-token",
                    SaleFixture.ADMIN_TOKEN, "--rehearsal", "--edge-key-file", edgeKeyFile().toString()});

            assertThat(exit, is(3));
            try (var files = Files.list(dir)) {
                assertThat("no report", files.toList(), is(List.of()));
            }
            assertThat(RealWorldDump.keys(redis, "rh:*"), is(rehearsalKeysBefore));
            SaleFixture here = new SaleFixture(target.getUri(), db);
            assertThat(here.count("SELECT COUNT(*) FROM " + shadow.name() + ".seckill_activity"), is(0L));
            RealWorldDump.of(redis, config).assertUnchangedSince(before);
        } finally {
            deleteRehearsalKeys();
        }
    }

    /** The real purchase figures of both instances (every sample but a rehearsal's), side by side. */
    private MetricSamples realFigures(SecondInstance first, SecondInstance second) {
        StringBuilder text = new StringBuilder();
        for (SecondInstance instance : List.of(first, second)) {
            MetricSamples.of(new SaleFixture(instance.base(), db)).where(s -> s.startsWith("seckill_purchases_total{")
                    && !s.contains("world=\"rehearsal\"")).forEach((series, v) -> text.append(series
                    .replace("{", "{instance=\"" + instance.base().getPort() + "\",")).append(' ').append(v).append('\n'));
        }
        return MetricSamples.parse(text.toString());
    }

    /** Every rh: key naming the rehearsal's id, whatever its kind. */
    private List<String> rehearsalKeys(long rehearsal) {
        return RealWorldDump.keys(redis, "rh:*").keySet().stream()
                .filter(k -> k.matches(".*a" + rehearsal + "[^0-9].*")).toList();
    }

    /** Every rh: key (only rehearsals write them): any an earlier test left. */
    private void deleteRehearsalKeys() {
        RealWorldDump.keys(redis, "rh:*").keySet().forEach(redis::del);
    }
}
