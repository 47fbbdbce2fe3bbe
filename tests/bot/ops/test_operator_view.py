"""deploy/'s operator view against the metrics the bot really exports: every metric that the
alert rules (deploy/prometheus/alerts.yml) and the Grafana dashboard
(deploy/grafana/sixshooter.json) name is on /metrics, so a metric renamed in bot/ops/metrics.py
fails here instead of leaving an operator a silent alert or an empty panel; each alert says how
bad it is and what to look at first; the dashboard imports and each of its panels queries
something. promtool, where it is installed (Debian: prometheus), checks the rules too."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families

from bot.ops import metrics

ROOT = Path(__file__).resolve().parents[3]
ALERTS = ROOT / "deploy" / "prometheus" / "alerts.yml"
SCRAPE = ROOT / "deploy" / "prometheus" / "prometheus.yml"
DASHBOARD = ROOT / "deploy" / "grafana" / "sixshooter.json"
# Series that are not the bot's: a scrape's own `up`, a blackbox exporter's probe of /healthz.
NOT_THE_BOTS = {"up", "probe_success"}
SEVERITIES = {"critical", "warning"}
# The series a family of each type shows once it has a child (a labelled family shows only its
# HELP and TYPE lines until then).
_SERIES = {"counter": ("_total",), "histogram": ("_bucket", "_sum", "_count"),
           "summary": ("", "_sum", "_count"), "gauge": ("",), "info": ("_info",)}

# PromQL, reduced to its metric names: strings, label matchers, ranges and the label lists of
# by/without/on/ignoring/group_* go first; of what is left, a name before "(" is a function.
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`[^`]*`')
_NOT_NAMES = re.compile(r"\{[^}]*\}|\[[^\]]*\]"
                        r"|\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)")
_TOKEN = re.compile(r"\d[\w.]*(?:[eE][+-]?\d+)?|([A-Za-z_:][\w:]*)(\s*\()?")
# A Grafana variable's query: label_values(SELECTOR, LABEL) reads SELECTOR's series.
_LABEL_VALUES = re.compile(r"^\s*label_values\((.*),\s*\w+\s*\)\s*$", re.S)
_KEYWORDS = {"and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring",
             "group_left", "group_right", "inf", "nan"}


def names_in(expr: str) -> set[str]:
    """The metric names a PromQL expression (or a Grafana query with its $variables) reads."""
    expr = _NOT_NAMES.sub(" ", _STRING.sub('""', expr))
    return {m.group(1) for m in _TOKEN.finditer(expr)
            if m.group(1) and not m.group(2) and m.group(1).lower() not in _KEYWORDS}


def exported() -> set[str]:
    """Every series name the bot's /metrics shows, or will once a labelled family has a child
    (by its TYPE line): the registry's exposition, as the ops server serves it."""
    names: set[str] = set()
    for family in text_string_to_metric_families(metrics.text().decode()):
        names.update(sample.name for sample in family.samples)
        names.update(family.name + suffix for suffix in _SERIES.get(family.type, ("",)))
    return names


def alert_rules() -> list[dict[str, Any]]:
    loaded = yaml.safe_load(ALERTS.read_text(encoding="utf-8"))
    return [rule for group in loaded["groups"] for rule in group["rules"]]


def dashboard() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    return loaded


def panels(board: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every panel that shows something (a row's own panels too, if collapsed)."""
    for panel in board["panels"]:
        if panel["type"] == "row":
            yield from panel.get("panels", [])
        else:
            yield panel


def queries(board: dict[str, Any]) -> list[str]:
    exprs = [target["expr"] for panel in panels(board) for target in panel["targets"]]
    for variable in board["templating"]["list"]:
        if variable["type"] == "query":
            query = variable["query"]
            query = query["query"] if isinstance(query, dict) else query
            exprs.append(_LABEL_VALUES.sub(r"\1", query))
    return exprs


@pytest.mark.parametrize(("expr", "names"), [
    ('histogram_quantile(0.99, sum by (le) (rate(sixshooter_tap_latency_seconds_bucket'
     '{job="sixshooter"}[5m]))) > 1.5', {"sixshooter_tap_latency_seconds_bucket"}),
    ('max(sixshooter_poller{job="sixshooter"}) < 1\n  unless on () count('
     'sixshooter_bot_api_calls_total{job="sixshooter", method="setWebhook"})',
     {"sixshooter_poller", "sixshooter_bot_api_calls_total"}),
    ("absent(up{job='sixshooter_x'} == 1) or rate(process_cpu_seconds_total[$__rate_interval])"
     " / on(instance) group_left process_max_fds offset 5m",
     {"up", "process_cpu_seconds_total", "process_max_fds"}),
    ('sum(rate(a_total{x="{}"}[1h30m])) by (x) / ignoring (y) b', {"a_total", "b"}),
])
def test_the_metric_names_of_an_expression(expr: str, names: set[str]) -> None:
    assert names_in(expr) == names


def test_a_variable_s_query_reads_its_selector() -> None:
    board = {"panels": [], "templating": {"list": [{"type": "query", "query": {
        "query": 'label_values(sixshooter_updates_total{job="$job"}, instance)'}}]}}
    assert {n for q in queries(board) for n in names_in(q)} == {"sixshooter_updates_total"}


def test_every_metric_the_alerts_name_is_on_metrics() -> None:
    named = {name for rule in alert_rules() for name in names_in(rule["expr"])}
    # The six: the bot down, no poller, jobs overdue, 429s, database errors, slow taps.
    assert named >= {"up", "sixshooter_poller", "sixshooter_jobs_overdue",
                     "sixshooter_bot_api_429_total", "sixshooter_db_errors_total",
                     "sixshooter_tap_latency_seconds_bucket"}
    missing = named - NOT_THE_BOTS - exported()
    assert not missing, f"not on /metrics: {sorted(missing)}"


def test_each_alert_says_how_long_how_bad_and_what_to_look_at_first() -> None:
    rules = alert_rules()
    assert len({rule["alert"] for rule in rules}) == len(rules)
    for rule in rules:
        name = rule["alert"]
        assert re.fullmatch(r"([1-9]\d*[smh])+", str(rule.get("for", ""))), name
        assert rule["labels"]["severity"] in SEVERITIES, name
        annotations = rule["annotations"]
        assert annotations["summary"].strip(), name
        assert "Look first at" in annotations["description"], name


def test_the_dashboard_imports_and_every_panel_queries_the_bot() -> None:
    board = dashboard()
    assert isinstance(board["schemaVersion"], int) and board["uid"] and board["title"]
    variables = {v["name"]: v for v in board["templating"]["list"]}
    assert variables["datasource"]["type"] == "datasource"
    assert variables["datasource"]["query"] == "prometheus"
    shown = list(panels(board))
    assert len({panel["id"] for panel in board["panels"]}) == len(board["panels"])
    for panel in shown:
        assert panel["datasource"]["uid"] == "${datasource}", panel["title"]
        assert panel["targets"], panel["title"]
        for target in panel["targets"]:
            assert target["expr"].strip() and target["datasource"] == panel["datasource"]
        place = panel["gridPos"]
        assert place["x"] + place["w"] <= 24, panel["title"]
    named = {name for expr in queries(board) for name in names_in(expr)}
    missing = named - NOT_THE_BOTS - exported()
    assert not missing, f"not on /metrics: {sorted(missing)}"


def test_the_dashboard_shows_every_metric_the_bot_exports() -> None:
    named = {name for expr in queries(dashboard()) for name in names_in(expr)}
    ours = [family for family in metrics.REGISTRY.collect()
            if family.name.startswith("sixshooter_")]
    assert ours, "the bot exports no sixshooter_ metric?"
    for family in ours:
        assert named & {family.name + suffix for suffix in _SERIES[family.type]}, family.name
    assert {"process_cpu_seconds_total", "process_resident_memory_bytes"} <= named


def test_the_scrape_example_loads_the_rules_and_has_the_jobs_they_watch() -> None:
    config = yaml.safe_load(SCRAPE.read_text(encoding="utf-8"))
    assert [SCRAPE.parent / path for path in config["rule_files"]] == [ALERTS]
    jobs = {job["job_name"] for job in config["scrape_configs"]}
    watched = {m for rule in alert_rules() for m in re.findall(r'job="([^"]+)"', rule["expr"])}
    assert watched == jobs


def test_promtool_accepts_the_rules_and_the_example() -> None:
    promtool = shutil.which("promtool")
    if promtool is None:
        pytest.skip("promtool is not installed here (Debian: apt-get install prometheus)")
    done = subprocess.run([promtool, "check", "config", str(SCRAPE)], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
