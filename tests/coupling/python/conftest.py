"""A real coordinator for the baton package's tests: started on loopback ports the kernel
picks, in a temporary directory, stopped after the test (BATON_COORDINATOR_BIN: its path)."""

import json
import os
import subprocess
import time
from pathlib import Path

import pytest


class Coordinator:
    def __init__(self, directory: Path) -> None:
        self.dir = directory
        self.secret_file = directory / "secret"
        self.secret_file.write_text("python-test-secret-0123456789abcdef\n")
        (directory / "coordinator.toml").write_text(
            'agent_address = "127.0.0.1:0"\napi_address = "127.0.0.1:0"\nsecret_file = "secret"\n'
            'state_dir = "state"\nheartbeat_seconds = 0.2\n'
        )
        self.log = open(directory / "coordinator.log", "w")
        ready = directory / "ready.json"
        self.process = subprocess.Popen(
            [os.environ["BATON_COORDINATOR_BIN"], "--config", str(directory / "coordinator.toml"),
             "--ready-file", str(ready)],
            stderr=self.log,
        )
        deadline = time.monotonic() + 10
        while not (ready.exists() and ready.stat().st_size) and time.monotonic() < deadline:
            assert self.process.poll() is None, (directory / "coordinator.log").read_text()
            time.sleep(0.05)
        addresses = json.loads(ready.read_text())
        self.api, self.agents = addresses["api"], addresses["agents"]

    def session_options(self, node_id: str = "") -> dict:
        options = {"api": self.api, "timeout": 30.0, "rate": 200e6}
        if node_id:
            options.update(node_id=node_id, coordinator=self.agents, secret_file=self.secret_file)
        return options

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)
        self.log.close()


@pytest.fixture
def coordinator(tmp_path: Path):
    c = Coordinator(tmp_path)
    yield c
    c.stop()
