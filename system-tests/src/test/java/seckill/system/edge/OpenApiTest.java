package seckill.system.edge;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.ws.rs.core.MediaType;
import org.junit.jupiter.api.Test;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.is;

/**
 * The API guide's purchase tables (docs/api.md) and the served OpenAPI contract cannot drift: every status and
 * every problem code the guide lists for a purchase is declared by the purchase operation in
 * {@code /openapi}, with its headers, and the document has typed schemas and a real title.
 */
class OpenApiTest extends ServiceTest {

    private static final Pattern ROW = Pattern.compile("^\\| (\\d{3}) \\| ([^|]*)\\|", Pattern.MULTILINE);
    private static final Pattern CODE = Pattern.compile("`([A-Z][A-Z_]+)`");

    @Test
    void everyPurchaseStatusAndCodeOfTheReadmeIsInTheContract() throws Exception {
        JsonObject openapi = document();
        assertThat(openapi.getJsonObject("info").getString("title"), is("seckill flash-sale API"));
        JsonObject purchase = openapi.getJsonObject("paths").getJsonObject("/api/v1/activities/{activityId}/purchases")
                .getJsonObject("post");
        JsonObject responses = purchase.getJsonObject("responses");

        Set<String> statuses = new LinkedHashSet<>();
        Set<String> codes = new LinkedHashSet<>();
        Matcher rows = ROW.matcher(purchaseTables());
        while (rows.find()) {
            statuses.add(rows.group(1));
            Matcher code = CODE.matcher(rows.group(2));
            while (code.find()) {
                codes.add(rows.group(1) + " " + code.group(1));
            }
        }
        assertThat(statuses, hasItems("202", "200", "400", "401", "404", "409", "410", "429", "403", "503"));
        assertThat(responses.keySet(), hasItems(statuses.toArray(String[]::new)));
        Set<String> undeclared = new LinkedHashSet<>();
        for (String statusAndCode : codes) {
            String[] parts = statusAndCode.split(" ");
            if (!resolved(openapi, responses.getJsonObject(parts[0])).toString().contains(parts[1])) {
                undeclared.add(statusAndCode);
            }
        }
        assertThat("codes docs/api.md lists but the purchase operation does not declare", undeclared, empty());

        // the headers a client acts on, and typed bodies, not strings
        assertThat(responses.getJsonObject("429").getJsonObject("headers").keySet(),
                hasItems("Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"));
        assertThat(responses.getJsonObject("503").getJsonObject("headers").keySet(), hasItems("Retry-After"));
        assertThat(responses.getJsonObject("202").getJsonObject("headers").keySet(), hasItems("Location"));
        assertThat(purchase.getJsonObject("requestBody").toString(), containsString("PurchaseRequest"));
        assertThat(openapi.getJsonObject("components").getJsonObject("schemas").keySet(),
                hasItems("Problem", "PurchaseRequest", "Reservation", "ReservationView", "BuyerReservations",
                        "ActivityView", "NewActivity", "LaunchedActivity"));
    }

    /**
     * Issue #34 (docs/rehearsal.md "The edge's signed mark"): every buyer operation that names an activity (in its
     * path, or through a reservation id) declares the 403 a rehearsal mark on a real activity gets.
     */
    @Test
    void everyBuyerOperationNamingAnActivityDeclaresAMarkOnARealOne() {
        JsonObject openapi = document();
        Set<String> undeclared = new LinkedHashSet<>();
        int operations = 0;
        for (var path : openapi.getJsonObject("paths").entrySet()) {
            boolean namesAnActivity = path.getKey().startsWith("/api/v1/activities/{activityId}")
                    || path.getKey().equals("/api/v1/reservations/{reservationId}");
            if (!namesAnActivity) {
                continue;
            }
            for (var operation : path.getValue().asJsonObject().entrySet()) {
                operations++;
                JsonObject forbidden = operation.getValue().asJsonObject().getJsonObject("responses").getJsonObject("403");
                if (forbidden == null || !resolved(openapi, forbidden).toString().contains("REHEARSAL_MARK_ON_REAL_ACTIVITY")) {
                    undeclared.add(operation.getKey() + " " + path.getKey());
                }
            }
        }
        assertThat(operations, is(10));
        assertThat("operations naming an activity without REHEARSAL_MARK_ON_REAL_ACTIVITY", undeclared, empty());
    }

    /**
     * The document exactly as {@code /openapi} serves it (YAML, what Helidon makes of META-INF/openapi.yml), written to
     * {@code system-tests/target/openapi-served.yaml} for the linters CI runs after the build
     * ({@code tools/contract-lint/lint.sh}, docs/contract.md). The linters judge what clients get, not the source file.
     */
    @Test
    void theServedDocumentIsWrittenForTheLinters() throws Exception {
        String yaml = target.path("/openapi").request("application/vnd.oai.openapi").get(String.class);
        assertThat(Pattern.compile("(?m)^openapi: 3\\.").matcher(yaml).find(), is(true));
        assertThat(yaml, containsString("/api/v1/activities/{activityId}/purchases"));
        Path out = moduleDirectory().resolve("target/openapi-served.yaml");
        Files.createDirectories(out.getParent());
        Files.writeString(out, yaml);
    }

    /** The system-tests module's folder, whether the tests run from it or from the repository's root. */
    static Path moduleDirectory() {
        Path here = Path.of(System.getProperty("user.dir"));
        return Files.isDirectory(here.resolve("system-tests/src")) ? here.resolve("system-tests") : here;
    }

    /** A response, or the shared response its {@code $ref} names. */
    private static JsonObject resolved(JsonObject openapi, JsonObject response) {
        if (!response.containsKey("$ref")) {
            return response;
        }
        String name = response.getString("$ref").substring("#/components/responses/".length());
        return openapi.getJsonObject("components").getJsonObject("responses").getJsonObject(name);
    }

    private JsonObject document() {
        String json = target.path("/openapi").request(MediaType.APPLICATION_JSON).get(String.class);
        try (JsonReader reader = Json.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }

    /** docs/api.md's purchase table and admission table: from the purchase heading to the challenges heading. */
    private static String purchaseTables() throws Exception {
        Path readme = Path.of(System.getProperty("user.dir")).resolve("docs/api.md");
        if (!Files.exists(readme)) {
            readme = Path.of(System.getProperty("user.dir")).getParent().resolve("docs/api.md");
        }
        String text = Files.readString(readme);
        int start = text.indexOf("### `POST /api/v1/activities/{activityId}/purchases`");
        int end = text.indexOf("#### `POST /api/v1/activities/{activityId}/challenges`", start);
        return text.substring(start, end);
    }
}
