package seckill.system.ops;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.is;

/**
 * Issue #32, item 5: every alert of {@code config/prometheus/alerts.yml} has a {@code runbook_url}
 * annotation naming {@code docs/runbook.md#<anchor>}, and the anchor is a heading of that page (as
 * GitHub makes anchors from headings). An alert added without its runbook section fails here.
 */
class RunbookTest {

    private static final Path ALERTS = Path.of("..", "config", "prometheus", "alerts.yml");
    private static final Path RUNBOOK = Path.of("..", "docs", "runbook.md");
    private static final String PREFIX = "docs/runbook.md#";

    @Test
    void everyAlertLinksToASectionOfTheRunbook() throws IOException {
        Map<String, String> urls = runbookUrls(Files.readString(ALERTS));
        assertThat("alerts read from " + ALERTS, urls.size(), greaterThanOrEqualTo(7));
        Set<String> anchors = anchors(Files.readString(RUNBOOK));
        List<String> problems = new ArrayList<>();
        urls.forEach((alert, url) -> {
            if (url == null) {
                problems.add(alert + " has no runbook_url annotation");
            } else if (!url.startsWith(PREFIX)) {
                problems.add(alert + "'s runbook_url " + url + " does not point into " + PREFIX);
            } else if (!anchors.contains(url.substring(PREFIX.length()))) {
                problems.add(alert + "'s runbook_url " + url + " names no heading of docs/runbook.md (anchors: " + anchors + ")");
            }
        });
        assertThat(String.join("\n", problems), problems, is(empty()));
    }

    /** The check itself: an alert without the annotation, or with an anchor the page lacks, is reported. */
    @Test
    void anAlertWithoutARunbookOrWithAMissingSectionIsFound() {
        Map<String, String> urls = runbookUrls("""
                groups:
                  - name: g
                    rules:
                      - alert: WithOne
                        expr: up == 0
                        annotations:
                          runbook_url: "docs/runbook.md#withone"
                      - alert: WithoutOne
                        expr: up == 0
                        annotations:
                          summary: "x"
                """);
        assertThat(urls.get("WithOne"), is("docs/runbook.md#withone"));
        assertThat(urls.containsKey("WithoutOne"), is(true));
        assertThat(urls.get("WithoutOne"), is((String) null));
        assertThat(anchors("# Runbook\n## WithOne\n```\n## Not a heading\n```\n## What `it` means (A, B)\n## WithOne\n"),
                hasItems("runbook", "withone", "what-it-means-a-b", "withone-1"));
        assertThat(anchors("```\n## Not a heading\n```\n").contains("not-a-heading"), is(false));
    }

    /** Alert name → its runbook_url annotation (null when it has none), in file order. */
    @SuppressWarnings("unchecked")
    static Map<String, String> runbookUrls(String yaml) {
        Map<String, Object> root = new Yaml().load(yaml);
        Map<String, String> urls = new LinkedHashMap<>();
        for (Map<String, Object> group : (List<Map<String, Object>>) root.get("groups")) {
            for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
                if (rule.get("alert") == null) {
                    continue; // a recording rule
                }
                Map<String, Object> annotations = (Map<String, Object>) rule.get("annotations");
                Object url = annotations == null ? null : annotations.get("runbook_url");
                urls.put(String.valueOf(rule.get("alert")), url == null ? null : String.valueOf(url));
            }
        }
        return urls;
    }

    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

    /**
     * GitHub's anchors of a Markdown page: each ATX heading outside code fences, lower-cased, markup
     * and punctuation other than '-' and '_' removed, spaces turned to '-'; a repeated anchor gets
     * -1, -2, ….
     */
    static Set<String> anchors(String markdown) {
        Set<String> anchors = new HashSet<>();
        boolean fenced = false;
        for (String line : markdown.split("\n")) {
            if (line.startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            var m = HEADING.matcher(line);
            if (fenced || !m.matches()) {
                continue;
            }
            String text = m.group(1).replaceAll("\\[([^]]*)]\\([^)]*\\)", "$1").toLowerCase(Locale.ROOT);
            StringBuilder anchor = new StringBuilder();
            text.codePoints().forEach(c -> {
                if (c == ' ') {
                    anchor.append('-');
                } else if (c == '-' || c == '_' || Character.isLetterOrDigit(c)) {
                    anchor.appendCodePoint(c);
                }
            });
            String base = anchor.toString();
            String unique = base;
            for (int n = 1; !anchors.add(unique); n++) {
                unique = base + "-" + n;
            }
        }
        return anchors;
    }
}
