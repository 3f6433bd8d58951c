package seckill.system;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.ValidationReport;
import jakarta.ws.rs.client.WebTarget;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;

/**
 * The OpenAPI document exactly as {@code /openapi} serves it, as a validator of real answers
 * (Atlassian's swagger-request-validator): an answer whose status the operation does not declare,
 * whose content type or header is not the documented one, or whose body breaks the schema (a field
 * of another type, a required field missing, a value outside its enum) fails the test that got it.
 * docs/contract.md says how this and the linters keep the contract honest.
 */
public final class ServedContract {

    private final OpenApiInteractionValidator validator;
    private final Set<String> checked = new TreeSet<>();

    private ServedContract(String document) {
        this.validator = OpenApiInteractionValidator.createForInlineApiSpecification(document).build();
    }

    /** The document the running service serves (YAML, as a client or a generator fetches it). */
    public static ServedContract of(WebTarget target) {
        return new ServedContract(target.path("/openapi").request("application/vnd.oai.openapi").get(String.class));
    }

    /** Fails the test unless the answer is one the contract documents for its request; returns it. */
    public HttpResponse<String> check(HttpResponse<String> answer) {
        ValidationReport report = report(answer.request().method(), answer.request().uri().getPath(), answer.statusCode(),
                answer.headers().map(), answer.body());
        String what = answer.request().method() + " " + answer.request().uri().getPath() + " -> " + answer.statusCode()
                + " " + answer.body();
        assertThat("the answer drifted from the served contract: " + what, messages(report), empty());
        checked.add(answer.request().method() + " " + answer.statusCode() + " "
                + answer.request().uri().getPath().replaceAll("/[0-9]+(/|$)", "/{id}$1").replaceAll("/[0-9A-Za-z_-]{20,}$", "/{id}"));
        return answer;
    }

    /** What the validator says of an answer (the tests of the validator itself feed it made-up ones). */
    public ValidationReport report(String method, String path, int status, Map<String, List<String>> headers, String body) {
        SimpleResponse.Builder response = SimpleResponse.Builder.status(status);
        headers.forEach((name, values) -> response.withHeader(name, values));
        if (body != null && !body.isEmpty()) {
            response.withBody(body);
        }
        return validator.validateResponse(path, Request.Method.valueOf(method), response.build());
    }

    public static List<String> messages(ValidationReport report) {
        return report.getMessages().stream().filter(m -> m.getLevel() == ValidationReport.Level.ERROR)
                .map(m -> m.getKey() + ": " + m.getMessage()).toList();
    }

    /** The method, status and path (ids folded) of every answer checked so far. */
    public Set<String> checked() {
        return checked;
    }
}
