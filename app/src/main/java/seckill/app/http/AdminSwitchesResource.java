package seckill.app.http;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import seckill.admission.api.SwitchesView;
import seckill.app.infra.AdminToken;

/** The hot switches in force on this instance and the config source each value came from. */
@Path("/api/v1/admin/switches")
@ApplicationScoped
public class AdminSwitchesResource {

    @Inject
    AdminToken adminToken;

    @Inject
    SwitchesView switches;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public String effective(@HeaderParam(HttpHeaders.AUTHORIZATION) String authorization) {
        AdminActivitiesResource.requireAdmin(adminToken, authorization);
        JsonObjectBuilder json = Jsons.PROVIDER.createObjectBuilder();
        switches.effective().forEach((key, valueAndSource) -> json.add(key, Jsons.PROVIDER.createObjectBuilder()
                .add("value", valueAndSource[0]).add("source", valueAndSource[1])));
        return json.build().toString();
    }
}
