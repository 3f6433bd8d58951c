package seckill.drill.ramp;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import seckill.drill.ramp.rules.FirstToGive;
import seckill.drill.ramp.rules.Giving;
import seckill.drill.ramp.rules.Layer;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** The ramp's readings of Redis and the service, and its chart, from planted text. */
class RampReadingsTest {

    @Test
    void commandStatsAreReadPerCommandAndScriptsSummed() {
        String info = "# Commandstats\r\ncmdstat_evalsha:calls=10,usec=500,usec_per_call=50.00,rejected_calls=0,"
                + "failed_calls=0\r\ncmdstat_xadd:calls=10,usec=80,usec_per_call=8.00\r\n"
                + "cmdstat_config|set:calls=1,usec=464,usec_per_call=464.00\r\n";
        Map<String, RedisStats.CommandTime> stats = RedisStats.commandStats(info);
        assertThat(stats.get("evalsha"), is(new RedisStats.CommandTime(10, 500)));
        assertThat(stats.get("config|set"), is(new RedisStats.CommandTime(1, 464)));
        RedisStats.Delta delta = new RedisStats.Delta(1, Map.of("evalsha", new RedisStats.CommandTime(10, 500),
                "evalsha_ro", new RedisStats.CommandTime(10, 100), "xadd", new RedisStats.CommandTime(10, 80)), 0, 0,
                Map.of());
        assertThat(delta.scriptMicrosPerCall(), is(30.0));
        assertThat(List.copyOf(delta.busiest(2).keySet()), is(List.of("evalsha", "evalsha_ro")));
    }

    @Test
    void aMasterMissingFromOneSampleIsLeftOutOfTheDelta() {
        Map<String, RedisStats.CommandTime> a1 = Map.of("evalsha", new RedisStats.CommandTime(100, 5_000));
        Map<String, RedisStats.CommandTime> b1 = Map.of("evalsha", new RedisStats.CommandTime(50, 9_000));
        RedisStats.Sample before = new RedisStats.Sample(0, Map.of("a", a1, "b", b1), Map.of(), Map.of());
        RedisStats.Sample after = new RedisStats.Sample(1_000, Map.of("a",
                Map.of("evalsha", new RedisStats.CommandTime(110, 5_400), "xadd", new RedisStats.CommandTime(3, 9))),
                Map.of(), Map.of());
        RedisStats.Delta delta = RedisStats.between(before, after);
        assertThat(delta.nodes(), is(1));
        assertThat(delta.commands().get("evalsha"), is(new RedisStats.CommandTime(10, 400)));
        assertThat(delta.scriptMicrosPerCall(), is(40.0));
        assertThat(delta.commands().get("xadd"), is(new RedisStats.CommandTime(3, 9)));
    }

    @Test
    void aClusterIsReadOnEveryLiveMaster() {
        String nodes = """
                a1 10.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-5460
                b2 10.0.0.2:7001@17001 master - 0 0 2 connected 5461-10922
                c3 10.0.0.3:7002@17002 slave b2 0 0 2 connected
                d4 10.0.0.4:7003@17003 master,fail - 0 0 3 disconnected
                """;
        assertThat(RedisStats.clusterMasters(nodes).stream().map(Object::toString).toList(),
                is(List.of("10.0.0.1:7000", "10.0.0.2:7001")));
    }

    @Test
    void prometheusSeriesAreSummedOverTheirLabels() {
        String text = """
                # HELP seckill_purchases_total Purchases
                # TYPE seckill_purchases_total counter
                seckill_purchases_total{mp_scope="application",outcome="reserved"} 7.0
                seckill_purchases_total{mp_scope="application",outcome="sold_out"} 3.0
                seckill_stream_pending{mp_scope="application"} 12.0
                seckill_ordering_transaction_seconds_sum{mp_scope="application"} 0.25
                up 1
                """;
        Map<String, Double> sums = ServiceFigures.sums(text);
        assertThat(sums.get("seckill_purchases_total"), is(10.0));
        assertThat(sums.get("seckill_stream_pending"), is(12.0));
        assertThat(sums.get("seckill_ordering_transaction_seconds_sum"), is(0.25));
        assertThat(sums.get("up"), is(1.0));
    }

    @Test
    void aRehearsalsSeriesAreLeftOutOfTheSums() {
        // issue #34: a rehearsal on the same instances moves its own series (world="rehearsal"); a ramp judges real sales
        String text = """
                seckill_orders_created_total{mp_scope="application",world="real"} 5.0
                seckill_orders_created_total{mp_scope="application",world="rehearsal"} 40.0
                seckill_ordering_transaction_seconds_count{mp_scope="application",world="rehearsal",} 9.0
                seckill_ordering_transaction_seconds_count{mp_scope="application",world="real",} 2.0
                seckill_stream_pending{mp_scope="application"} 12.0
                """;
        Map<String, Double> sums = ServiceFigures.sums(text);
        assertThat(sums.get("seckill_orders_created_total"), is(5.0));
        assertThat(sums.get("seckill_ordering_transaction_seconds_count"), is(2.0));
        assertThat(sums.get("seckill_stream_pending"), is(12.0));
        // a ramp of a rehearsal (drill rehearse --rehearsal) judges the rehearsal's series alone; the stream gauges
        // count real streams only, so its backlog is not theirs (it is read from Redis)
        Map<String, Double> rehearsals = ServiceFigures.sums(text, seckill.redis.World.REHEARSAL);
        assertThat(rehearsals.get("seckill_orders_created_total"), is(40.0));
        assertThat(rehearsals.get("seckill_ordering_transaction_seconds_count"), is(9.0));
        assertThat(rehearsals.containsKey("seckill_stream_pending"), is(false));
    }

    @Test
    void theChartIsWellFormedWithOnePointPerStepAndSeries() throws Exception {
        List<RampChart.Point> points = List.of(
                new RampChart.Point(1, 10, 10, Map.of(), 12),
                new RampChart.Point(2, 20, 15, Map.of(Layer.ADMISSION, 5.0), 14),
                new RampChart.Point(3, 30, 15, Map.of(Layer.ADMISSION, 15.0), Double.NaN));
        FirstToGive first = new FirstToGive(2, 20, new Giving(Layer.ADMISSION, Giving.How.SHEDS, "5 < 6 & more"),
                List.of());
        String svg = RampChart.svg("a <ramp>", points, Optional.of(first));
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertThat(doc.getDocumentElement().getTagName(), is("svg"));
        var circles = doc.getElementsByTagName("circle");
        int offered = 0;
        int p99 = 0;
        for (int i = 0; i < circles.getLength(); i++) {
            String c = circles.item(i).getAttributes().getNamedItem("class").getNodeValue();
            offered += c.equals("offered") ? 1 : 0;
            p99 += c.equals("p99") ? 1 : 0;
        }
        assertThat(offered, is(3));
        assertThat("no point where nothing was measured", p99, is(2));
    }
}
