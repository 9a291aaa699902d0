"""Addresses parsed strictly by one parser (``mcp_skew._input``), before anything starts:
``serve --http``, ``probe --url``/``--sse-url``, ``census --scheduler``; and the worker
count of ``census --cluster local:N``/``--jobs`` bounded.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _fuzz import run_cli

from mcp_skew._input import AddressError, parse_host_port, parse_url
from mcp_skew.census._execute import max_local_workers

GOOD_HOST_PORTS = [
    ("8808", ("127.0.0.1", 8808)), ("0", ("127.0.0.1", 0)), ("localhost:0", ("localhost", 0)),
    ("[::1]:9", ("::1", 9)), ("10.0.0.5:65535", ("10.0.0.5", 65535)),
    ("example.com.:80", ("example.com.", 80)), ("a-b.c:1", ("a-b.c", 1)),
]
BAD_HOST_PORTS = [
    "]:0", "[::1", "[::1]", "[::1]x:1", ":8808", "a:b:1", "[zz]:1", "[]:1", "1.2.3.4.5:1",
    "999.1.1.1:1", "host name:1", "x.-a:1", "-x:1", "host:port", "h:65536", "h:-1", "h:",
    "h:+1", "h:١", "h:0x10", "", ":", "a" * 64 + ":1", "é:1", "h:1:",
]


@pytest.mark.parametrize(("text", "expected"), GOOD_HOST_PORTS)
def test_good_host_ports(text: str, expected: tuple[str, int]) -> None:
    assert parse_host_port(text, "127.0.0.1") == expected


@pytest.mark.parametrize("text", BAD_HOST_PORTS)
def test_bad_host_ports(text: str) -> None:
    with pytest.raises(AddressError) as caught:
        parse_host_port(text, "127.0.0.1")
    assert "\n" not in str(caught.value)


GOOD_URLS = ["http://127.0.0.1:8000/mcp", "http://[::1]:80/mcp", "https://u:p@example.com/x",
             "HTTP://localhost/mcp", "https://example.com"]
BAD_URLS = ["http://[::1", "http://[::zz]:80/mcp", "http://host:99999/mcp", "http://host:-1/",
            "http://host:0/", "ftp://x/", "http:///mcp", "http://a b/", "http://[::1]x/",
            "http://h:/", "http://bad_host/", "http://h\x1b[2J/", "mcp", "http://1.2.3.4.5/"]


@pytest.mark.parametrize("text", GOOD_URLS)
def test_good_urls(text: str) -> None:
    assert parse_url(text, ("http", "https")) == text


@pytest.mark.parametrize("text", BAD_URLS)
def test_bad_urls(text: str) -> None:
    with pytest.raises(AddressError):
        parse_url(text, ("http", "https"))


@pytest.mark.parametrize("address", ["]:0", "[::1", ":8808", "h:65536", "[zz]:1", "a:b:1"])
def test_serve_refuses_a_malformed_address_before_it_starts(tmp_path: Path, address: str) -> None:
    log = tmp_path / "serve.jsonl"
    code, out, err = run_cli(["serve", "legacy:2025-06-18", "--http", address,
                              "--record", str(log)])
    assert (code, out) == (2, "")
    assert err.startswith(f"mcp-skew: error: --http {address!r}: ") and err.count("\n") == 1
    assert not log.exists()  # refused before the log is opened


@pytest.mark.parametrize("option", ["--url", "--sse-url"])
@pytest.mark.parametrize("url", ["http://[::1", "http://[::zz]:80/mcp", "http://h:99999/mcp",
                                 "http://h:-1/", "http://a b/"])
def test_probe_refuses_a_malformed_url(tmp_path: Path, option: str, url: str) -> None:
    argv = ["probe", "--url", url if option == "--url" else "http://127.0.0.1:9/mcp",
            *([option, url] if option == "--sse-url" else []),
            "--out", str(tmp_path / "r.json")]
    code, out, err = run_cli(argv)
    assert (code, out) == (2, ""), err
    assert err.startswith(f"mcp-skew: error: {option}: ") and err.count("\n") == 1, err
    assert not (tmp_path / "r.json").exists()


@pytest.mark.parametrize(("option", "value", "says"), [
    ("--scheduler", "tcp://[::1", "--scheduler: 'tcp://[::1': the host is not an IPv6"),
    ("--scheduler", "tcp://h", "--scheduler: 'tcp://h' has no port"),
    ("--scheduler", "tcp://h:99999", "--scheduler: port '99999'"),
    ("--cluster", "local:99999", "--cluster 'local:99999': expected local or local:N"),
    ("--cluster", f"local:{max_local_workers() + 1}", "N workers, 1 to"),
    ("--jobs", "99999", f"--jobs 99999: at most {max_local_workers()}"),
])
def test_census_refuses_bad_addresses_and_worker_counts(tmp_path: Path, option: str,
                                                        value: str, says: str) -> None:
    db = tmp_path / "c.sqlite"
    code, _, err = run_cli(["census", "--db", str(db), option, value])
    assert code == 2
    assert says in err and err.count("\n") == 1, err
    assert not db.exists()
