package seckill.system.ops;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import javax.xml.parsers.DocumentBuilderFactory;

import io.helidon.microprofile.testing.junit5.AddConfig;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;
import seckill.drill.api.InvariantCheck;
import seckill.drill.api.Ramp;
import seckill.drill.api.RampOptions;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;

/**
 * The ramp ({@code drill rehearse}) against the service with a deliberately low global admission
 * rate (6 a second) and steps of 3, 8, 13 and 18 requests a second: admission is the first layer to
 * shed, at the step where its 429s appear, and the report adds up and draws one point per step.
 */
@AddConfig(key = "seckill.admission.global-rate", value = "6")
class RampTest extends ServiceTest {

    @Test
    void admissionIsNamedFirstAtTheStepWhereItsRefusalsAppear() throws Exception {
        // Sold-out flags travel on one pub/sub channel per Redis server, not per database: on a machine where
        // other runs share the server, their activity 1 selling out flags ours (a false 410 for 5 s, seen
        // here as a step of nothing but SOLD_OUT). An id far from theirs keeps this test about admission.
        db.execute().dml("ALTER TABLE seckill_activity AUTO_INCREMENT = 40000000");
        Path dir = Files.createTempDirectory("ramp");
        // the other layers' bounds are wide: this machine is shared, and the test is about admission
        RampOptions options = RampOptions.parse(new String[] {"--url", target.getUri().toString(), "--target-rate", "12",
                "--steps", "4", "--step-seconds", "3", "--report", dir.toString(),
                "--metrics", target.getUri().resolve("/metrics").toString(), "--p99-bound-ms", "3000",
                "--db-wait-bound-ms", "2000"});
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        JsonObject report = new Ramp(options, SaleFixture.ADMIN_TOKEN,
                config.getOptionalValue("seckill.redis.uri", String.class), Optional.of(InvariantCheck.ledgerAudit(db)),
                new PrintStream(printed, true, StandardCharsets.UTF_8)).run();
        String text = printed.toString(StandardCharsets.UTF_8);
        System.out.println(text);

        // every request sent is counted under exactly one answer, and the ramp sent its schedule
        var steps = report.getJsonArray("steps");
        assertThat(steps.size(), is(4));
        int firstRefusing = -1;
        for (JsonValue value : steps) {
            JsonObject step = value.asJsonObject();
            long sent = step.getJsonNumber("sent").longValue();
            long counted = step.getJsonObject("answers").values().stream()
                    .mapToLong(v -> ((jakarta.json.JsonNumber) v).longValue()).sum();
            assertThat("step " + step.getInt("step"), counted, is(sent));
            assertThat(step.getJsonNumber("skipped").longValue(), is(0L));
            assertThat(sent, is((long) Math.floor(step.getJsonNumber("offeredRate").doubleValue() * 3)));
            long global = step.getJsonObject("answers").getJsonNumber("429 GLOBAL").longValue();
            if (firstRefusing < 0 && global > 0) {
                firstRefusing = step.getInt("step");
            }
            // the stores and the service were read: script calls, the ledger's orders, the backlog gauge
            assertThat(step.getJsonObject("redis").getJsonNumber("scriptCalls").longValue(), greaterThan(0L));
            assertThat(step.isNull("ordersPerSecond"), is(false));
            assertThat(step.getJsonObject("stream").isNull("backlogEnd"), is(false));
        }
        assertThat("the first step stays under the global rate", firstRefusing, greaterThan(1));

        JsonObject first = report.getJsonObject("firstToGive");
        assertThat(report.toString(), first.getString("layer"), is("admission"));
        assertThat(first.getString("how"), is("sheds"));
        assertThat(first.getInt("step"), is(firstRefusing));
        assertThat(first.getJsonNumber("offeredRate").doubleValue(),
                is(steps.getJsonObject(firstRefusing - 1).getJsonNumber("offeredRate").doubleValue()));
        assertThat(report.getString("verdict"), containsString("admission sheds first"));
        for (int i = 0; i < firstRefusing - 1; i++) {
            assertThat("nothing gave before", steps.getJsonObject(i).getJsonArray("gave").isEmpty(), is(true));
        }
        // the new ordering transaction timer was read from /metrics in at least one step with orders
        assertThat(report.toString(), steps.stream().anyMatch(s -> !s.asJsonObject().isNull("databaseWaitMillis")),
                is(true));

        // the files: the same JSON, the text summary, and a well-formed SVG with one point per step
        try (var reader = Json.createReader(Files.newBufferedReader(dir.resolve("ramp.json")))) {
            assertThat(reader.readObject(), is(report));
        }
        assertThat(Files.readString(dir.resolve("ramp.txt")), containsString("first to give: admission sheds first"));
        Document svg = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(dir.resolve("ramp.svg").toFile());
        assertThat(svg.getDocumentElement().getTagName(), is("svg"));
        NodeList circles = svg.getElementsByTagName("circle");
        int offered = 0;
        int admission = 0;
        for (int i = 0; i < circles.getLength(); i++) {
            String series = circles.item(i).getAttributes().getNamedItem("class").getNodeValue();
            offered += series.equals("offered") ? 1 : 0;
            admission += series.equals("admission") ? 1 : 0;
        }
        assertThat(offered, is(4));
        assertThat(admission, is(4));
        assertThat(svg.getElementsByTagName("line").getLength(), greaterThan(0));
    }
}
