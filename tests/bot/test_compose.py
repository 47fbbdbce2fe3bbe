"""docker-compose.yml as the bot reads it: each worker's environment parses (`Config.from_env`)
into the set-up the README describes (PostgreSQL, a webhook behind the proxy, metrics on a
port of their own), and Caddy's routes and health checks name exactly those workers and
ports. Images cannot be pulled here; `docker compose config` checks the file where it runs."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.config import Config

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
CADDYFILE = ROOT / "deploy" / "Caddyfile"
# What an operator's .env gives (deploy/example.env has the same names).
DOTENV = {"TELEGRAM_BOT_TOKEN": "123456789:" + "T" * 35, "BOT_DOMAIN": "bot.example.org",
          "POSTGRES_PASSWORD": "pg-" + "p" * 20, "WEBHOOK_SECRET": "w" * 64}
_VARIABLE = re.compile(r"\$\{(\w+)(?::([?-])([^}]*))?\}")


def interpolate(value: str, env: dict[str, str]) -> str:
    """Compose's ${NAME}, ${NAME:-default} and ${NAME:?error} (the forms the file uses)."""
    def one(m: re.Match[str]) -> str:
        name, how, rest = m.groups()
        if env.get(name):
            return env[name]
        if how == "?":
            raise KeyError(f"{name}: {rest}")
        return rest or ""

    return _VARIABLE.sub(one, value)


def services() -> dict[str, Any]:
    loaded = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    return dict(loaded["services"])


def workers() -> dict[str, Config]:
    return {name: Config.from_env({k: interpolate(str(v), DOTENV)
                                   for k, v in spec["environment"].items()}, check_paths=False)
            for name, spec in services().items() if "build" in spec}


def test_two_workers_on_one_postgresql_behind_one_https_name() -> None:
    found = workers()
    assert sorted(found) == ["worker1", "worker2"]
    for config in found.values():
        assert config.db_url == (f"postgresql://sixshooter:{DOTENV['POSTGRES_PASSWORD']}"
                                 "@postgres:5432/sixshooter")
        assert config.webhook_url == f"https://{DOTENV['BOT_DOMAIN']}/telegram/hook"
        assert config.webhook_listen == "0.0.0.0" and config.metrics_listen == "0.0.0.0"
        assert config.metrics_port is not None and config.metrics_port != config.webhook_port
        assert config.webhook_secret == DOTENV["WEBHOOK_SECRET"]
    assert len({(c.db_url, c.webhook_url, c.webhook_secret) for c in found.values()}) == 1


def test_a_missing_variable_stops_compose_with_its_name() -> None:
    env = {k: v for k, v in DOTENV.items() if k != "TELEGRAM_BOT_TOKEN"}
    spec = services()["worker1"]["environment"]
    with pytest.raises(KeyError, match="TELEGRAM_BOT_TOKEN"):
        interpolate(spec["TELEGRAM_BOT_TOKEN"], env)


def test_health_checks_and_routes_name_the_workers_ports() -> None:
    found, specs = workers(), services()
    caddy = CADDYFILE.read_text(encoding="utf-8")
    upstreams = re.search(r"reverse_proxy ([^{]+)\{", caddy)
    assert upstreams is not None
    assert upstreams.group(1).split() == [f"{n}:{c.webhook_port}" for n, c in found.items()]
    paths = {c.webhook_path for c in found.values()}
    assert re.findall(r"handle (/\S+)", caddy) == list(paths)
    # Checked on the upstream's own port, the webhook's, which serves /healthz too.
    assert "health_port" not in caddy and "health_uri /healthz" in caddy
    for name, config in found.items():
        probe = " ".join(specs[name]["healthcheck"]["test"])
        assert f"http://127.0.0.1:{config.metrics_port}/healthz" in probe
        assert specs[name]["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert "ports" not in specs[name], "a worker's ports stay inside the compose network"
    assert "healthcheck" in specs["postgres"] and "healthcheck" in specs["caddy"]
    assert sorted(specs["caddy"]["ports"]) == ["443:443", "80:80"]


def test_compose_itself_accepts_the_file() -> None:
    command = (["docker-compose"] if shutil.which("docker-compose") else None)
    if command is None:
        pytest.skip("docker-compose is not installed here (Debian: apt-get install docker-compose)")
    done = subprocess.run([*command, "-f", str(COMPOSE), "config", "-q"], env=DOTENV | {
        "PATH": "/usr/bin:/bin:/usr/local/bin"}, capture_output=True, text=True, timeout=60,
        check=False)
    assert done.returncode == 0, done.stderr
