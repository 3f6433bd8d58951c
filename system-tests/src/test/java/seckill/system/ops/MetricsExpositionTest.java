package seckill.system.ops;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.Test;
import seckill.system.MachineTools;
import seckill.system.MetricSamples;
import seckill.system.PaymentCallbacks;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.is;

/**
 * Issue #32, item 3: the service's own series on {@code /metrics} are as Prometheus expects them.
 * After a small sale (purchases reserved and sold out, orders, one payment) the Prometheus text is
 * fed to {@code promtool check metrics}, and no problem it reports names a {@code seckill_} series
 * (Helidon's own base metrics have problems of their own, listed in docs/operations.md). Every
 * {@code seckill_} series has its help text, including those counted only on rare events, which are
 * registered at start.
 */
@AddConfig(key = "seckill.admission.token-required", value = "false")
@AddConfig(key = "seckill.payment.hmac-key", value = PaymentCallbacks.PAYMENT_KEY)
@AddConfig(key = "seckill.payment.price", value = "99.50")
@AddConfig(key = "seckill.payment.currency", value = "CNY")
// no timeout sweep during the test: a meter must be on /metrics from the start, not from its first use
@AddConfig(key = "seckill.settlement.timeout-scan-seconds", value = "600")
class MetricsExpositionTest extends ServiceTest {

    private static final Path PROMTOOL = MachineTools.PROMTOOL;
    private static final long SKU = 32_301;
    private static final Pattern HELP = Pattern.compile("^# HELP (\\S+) (.*)$");
    private static final Pattern TYPE = Pattern.compile("^# TYPE (\\S+) \\S+$");

    @Test
    void promtoolFindsNoProblemInTheServicesOwnSeries() throws Exception {
        MachineTools.requirePromtool();
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        long activity = sale.createActivity(Instant.now().minusSeconds(5), Instant.now().plusSeconds(600), SKU, 3, 1);
        MetricSamples before = MetricSamples.of(sale);
        for (int b = 1; b <= 4; b++) {
            int status = sale.purchaseRetrying(activity, activity * 100 + b, SKU, 1, "metrics-" + b).statusCode();
            assertThat(status, is(b <= 3 ? 202 : 410));
        }
        SaleFixture.await("three orders", Duration.ofSeconds(30), () -> sale.orders(activity) == 3);
        String orderNo = sale.column("SELECT order_no FROM seckill_order WHERE activity_id = ? ORDER BY id", activity).get(0);
        HttpResponse<String> paid = pay(sale, orderNo, "p-metrics-" + activity);
        assertThat(paid.body(), paid.statusCode(), is(200));

        HttpResponse<String> metrics = sale.send(HttpRequest.newBuilder(sale.base.resolve("/metrics"))
                .header("Accept", "text/plain").GET());
        assertThat(metrics.statusCode(), is(200));
        String text = metrics.body();
        Files.writeString(Path.of("target", "metrics-exposition.txt"), text);  // what promtool read, for a reader

        Set<String> families = new TreeSet<>();
        Set<String> helped = new TreeSet<>();
        text.lines().forEach(line -> {
            Matcher type = TYPE.matcher(line);
            if (type.matches() && type.group(1).startsWith("seckill_")) {
                families.add(type.group(1));
            }
            Matcher help = HELP.matcher(line);
            if (help.matches() && help.group(1).startsWith("seckill_") && !help.group(2).isBlank()) {
                helped.add(help.group(1));
            }
        });
        // the names the alert rules, the operations view and docs/operations.md use, present from the start
        assertThat(families, hasItems("seckill_purchases_total", "seckill_reservations_total",
                "seckill_orders_created_total", "seckill_stream_pending", "seckill_stream_lag",
                "seckill_outbox_backlog", "seckill_reconciliation_mismatches_total",
                "seckill_reconciliation_oversold_total", "seckill_sales_halted", "seckill_sales_halts_total",
                "seckill_sales_resumes_total", "seckill_payments_total", "seckill_admission_total",
                "seckill_reservation_node_ids_replaced_total", "seckill_orders_timeouts_total",
                "seckill_refills_applied_total", "seckill_purchases_in_flight",
                "seckill_purchase_token_refusals_total", "seckill_admin_auth_failures_total",
                "seckill_reconciliation_refills_lost_total", "seckill_ordering_dead_letters_total",
                "seckill_ordering_transaction_seconds"));
        // a real sale's series carry world="real" (issue #34, docs/rehearsal.md): these three purchases moved them
        MetricSamples after = MetricSamples.parse(text);
        String real = "world=\"real\"";
        assertThat(after.sum("seckill_purchases_total", "outcome=\"reserved\"", real)
                - before.sum("seckill_purchases_total", "outcome=\"reserved\"", real), is(3.0));
        assertThat(after.sum("seckill_purchases_total", "outcome=\"sold_out\"", real)
                - before.sum("seckill_purchases_total", "outcome=\"sold_out\"", real), is(1.0));
        assertThat(after.sum("seckill_reservations_total", real) - before.sum("seckill_reservations_total", real), is(3.0));
        assertThat(after.sum("seckill_admission_total", "outcome=\"admitted\"", real)
                - before.sum("seckill_admission_total", "outcome=\"admitted\"", real), greaterThanOrEqualTo(3.0));
        assertThat(after.sum("seckill_orders_created_total", real) - before.sum("seckill_orders_created_total", real),
                greaterThanOrEqualTo(3.0));
        assertThat(after.sum("seckill_ordering_transaction_seconds_count", real)
                - before.sum("seckill_ordering_transaction_seconds_count", real), greaterThanOrEqualTo(1.0));
        // settlement's and the halt's series are per world too (step 3 and 5): world="real" here, from the start (an
        // instance without a shadow database has no rehearsal twin)
        for (String family : List.of("seckill_orders_timeouts_total", "seckill_refills_applied_total",
                "seckill_outbox_backlog", "seckill_reconciliation_mismatches_total", "seckill_reconciliation_oversold_total",
                "seckill_reconciliation_refills_lost_total", "seckill_sales_halted", "seckill_sales_halts_total",
                "seckill_sales_resumes_total")) {
            java.util.Map<String, Double> samples = after.where(series -> series.startsWith(family + "{"));
            assertThat(family, samples.isEmpty(), is(false));
            assertThat(family + " " + samples.keySet(), samples.keySet().stream().allMatch(series -> series.contains(real)),
                    is(true));
        }
        Set<String> withoutHelp = new TreeSet<>(families);
        withoutHelp.removeAll(helped);
        assertThat("seckill_ families without help text", withoutHelp, is(empty()));

        List<String> problems = promtoolCheckMetrics(text);
        List<String> ours = problems.stream().filter(p -> p.contains("seckill_")).toList();
        System.out.println("promtool check metrics: " + problems.size() + " problem(s), " + ours.size()
                + " of them on seckill_ series:\n" + String.join("\n", problems));
        assertThat("promtool's problems with the service's own series (all problems:\n"
                + String.join("\n", problems) + ")", ours, is(empty()));
        // whatever is left is Helidon's own: series of its base or vendor scope (tag mp_scope)
        List<String> notHelidons = problems.stream()
                .filter(p -> !Set.of("base", "vendor").contains(scopeOf(p.split(" ")[0], text))).toList();
        assertThat("problems outside Helidon's base and vendor metrics", notHelidons, is(empty()));
    }

    /** The {@code mp_scope} tag of the first sample of a family ({@code base}, {@code vendor}, {@code application}). */
    private static String scopeOf(String family, String exposition) {
        Pattern sample = Pattern.compile("^" + Pattern.quote(family) + "(?:_total|_count|_sum|_bucket)?\\{[^}]*mp_scope=\"([a-z]+)\"");
        return exposition.lines().map(sample::matcher).filter(Matcher::find).map(m -> m.group(1)).findFirst().orElse("none");
    }

    /** The problem lines {@code promtool check metrics} prints for the exposition on its standard input. */
    private static List<String> promtoolCheckMetrics(String exposition) throws Exception {
        Process promtool = new ProcessBuilder(PROMTOOL.toString(), "check", "metrics").redirectErrorStream(true).start();
        try (var in = promtool.getOutputStream()) {
            in.write(exposition.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat("promtool finished", promtool.waitFor(30, TimeUnit.SECONDS), is(true));
        // exit 0: clean; 3: lint problems found (one a line); anything else: it could not read the text
        assertThat(out, promtool.exitValue() == 0 || promtool.exitValue() == 3, is(true));
        return out.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    }

    private static HttpResponse<String> pay(SaleFixture sale, String orderNo, String paymentId) {
        String body = "{\"orderNo\":\"%s\",\"paymentId\":\"%s\",\"amount\":99.5,\"currency\":\"CNY\",\"paidAt\":\"%s\"}"
                .formatted(orderNo, paymentId, Instant.now());
        return sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/payments/callback"))
                .header("Content-Type", "application/json").header("X-Signature", PaymentCallbacks.sign(body))
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }
}
