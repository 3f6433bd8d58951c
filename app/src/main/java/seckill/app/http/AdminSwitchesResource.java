package seckill.app.http;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import seckill.admission.api.SwitchesView;

/** The hot switches in force on this instance and the config source each value came from. */
@AdminOnly
@Path("/api/v1/admin/switches")
@ApplicationScoped
public class AdminSwitchesResource {

    private final SwitchesView switches;

    @Inject
    AdminSwitchesResource(SwitchesView switches) {
        this.switches = switches;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String effective() {
        JsonObjectBuilder json = Jsons.PROVIDER.createObjectBuilder();
        switches.effective().forEach((key, valueAndSource) -> json.add(key, Jsons.PROVIDER.createObjectBuilder()
                .add("value", valueAndSource[0]).add("source", valueAndSource[1])));
        return json.build().toString();
    }
}
