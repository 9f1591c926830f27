"""A CLI whose reader has gone away (``newscrawl apply ... | head -1``) stops without a traceback.

The closed reader is real: a pipe whose read end is closed before the command starts, so its first
write fails with EPIPE."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAIR = ROOT / "tests/fixtures/psnt"  # wcxb_dev ifixit list pages, CC-BY-4.0 (see SOURCES.md there)


def cli(*args: str, **kwargs) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "crawler.cli", *args], cwd=ROOT, env=env,
                          stderr=subprocess.PIPE, check=False, **kwargs)


def test_output_into_a_closed_pipe_ends_quietly(tmp_path: Path):
    wrapper = tmp_path / "w.json"
    made = cli("induce", str(PAIR / "wcxb_dev-0651.html"), str(PAIR / "wcxb_dev-0652.html"),
               "--url", "https://www.ifixit.com/Parts", "--url", "https://www.ifixit.com/Parts/iPhone",
               "-o", str(wrapper), stdout=subprocess.DEVNULL)
    assert made.returncode == 0, made.stderr
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        applied = cli("apply", str(wrapper), str(PAIR / "wcxb_dev-0652.html"), stdout=write_end)
    finally:
        os.close(write_end)
    assert applied.returncode == 1
    assert b"Traceback" not in applied.stderr and b"BrokenPipeError" not in applied.stderr
