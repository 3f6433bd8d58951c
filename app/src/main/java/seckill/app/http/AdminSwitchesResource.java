package seckill.app.http;

import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;
import seckill.admission.api.SwitchesView;
import seckill.ledger.api.OrderingSwitch;
import seckill.queue.api.QueueSwitch;

/**
 * The hot switches in force on this instance and the config source each value came from: admission's,
 * the waiting line's ({@code seckill.queue.enabled}, {@code seckill.queue.rate}) and the ordering pace
 * ({@code seckill.ordering.max-orders-per-second}), each as the module applies it now, so the switch
 * drill ({@code drill switches}) can tell when an edit of the switches file took effect here.
 */
@AdminOnly
@Path("/api/v1/admin/switches")
@ApplicationScoped
public class AdminSwitchesResource {

    private final SwitchesView switches;
    private final QueueSwitch queue;
    private final OrderingSwitch ordering;
    private final Config config;

    @Inject
    AdminSwitchesResource(SwitchesView switches, QueueSwitch queue, OrderingSwitch ordering, Config config) {
        this.switches = switches;
        this.queue = queue;
        this.ordering = ordering;
        this.config = config;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String effective() {
        Map<String, String[]> all = new LinkedHashMap<>(switches.effective());
        all.put("seckill.queue.enabled", new String[] {Boolean.toString(queue.on()), source("seckill.queue.enabled")});
        all.put("seckill.queue.rate", new String[] {Long.toString(queue.rate()), source("seckill.queue.rate")});
        all.put("seckill.ordering.max-orders-per-second", new String[] {Long.toString(ordering.maxOrdersPerSecond()),
                source("seckill.ordering.max-orders-per-second")});
        JsonObjectBuilder json = Jsons.PROVIDER.createObjectBuilder();
        all.forEach((key, valueAndSource) -> json.add(key, Jsons.PROVIDER.createObjectBuilder()
                .add("value", valueAndSource[0]).add("source", valueAndSource[1])));
        return json.build().toString();
    }

    private String source(String key) {
        ConfigValue value = config.getConfigValue(key);
        return value.getValue() == null ? "default" : String.valueOf(value.getSourceName());
    }
}
