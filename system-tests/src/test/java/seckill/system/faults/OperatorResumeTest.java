package seckill.system.faults;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.helidon.microprofile.testing.junit5.AddConfig;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Protocol;
import seckill.system.SaleFixture;
import seckill.system.ServiceTest;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.startsWith;

/**
 * An operator's resume is not refused because a reconciliation pass happens to be running on the
 * instance (the schedule's, the resume check's or another operator's): it waits for its own pass.
 * CI saw the operations view's Resume button answered {@code 409 NOT_RECONCILED} although every SKU
 * was clean: the click came while the minute's scheduled reconciliation held the one-at-a-time
 * bulkhead, and nothing said so. Here Redis is paused from outside so four operators' resumes meet
 * inside the same pass; each must end with sales open.
 */
@AddConfig(key = "seckill.settlement.reconcile-seconds", value = "3600")
class OperatorResumeTest extends ServiceTest {

    private static final long SKU = 9611;

    @Test
    void resumesThatMeetARunningReconciliationWaitForIt() throws Exception {
        SaleFixture sale = new SaleFixture(target.getUri(), db);
        sale.createBucketedActivity(SKU, 40, 4);
        assertThat(admin(sale, "sales/halt").body(), containsString("HALTED"));
        List<String> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            // the resumes wait on the paused Redis, then all enter reconciliation together (the service's own Redis,
            // whatever its port: a fixed 6379 paused another Redis where the tests' stores are elsewhere)
            redis.sendCommand(Protocol.Command.CLIENT, "PAUSE", "1200");
            List<Future<HttpResponse<String>>> resumes = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                resumes.add(pool.submit(() -> admin(sale, "sales/resume")));
            }
            for (Future<HttpResponse<String>> resume : resumes) {
                HttpResponse<String> answer = resume.get();
                answers.add(answer.statusCode() + " " + answer.body());
            }
        }
        assertThat(answers, hasSize(4));
        assertThat("every operator's resume answered, none refused for a pass already running",
                answers, everyItem(startsWith("200 ")));
        assertThat(sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/sales"))
                .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN).GET()).body(), containsString("\"OPEN\""));
    }

    private static HttpResponse<String> admin(SaleFixture sale, String path) {
        return sale.send(HttpRequest.newBuilder(sale.base.resolve("/api/v1/admin/" + path))
                .header("Authorization", "Bearer " + SaleFixture.ADMIN_TOKEN)
                .POST(HttpRequest.BodyPublishers.noBody()));
    }
}
