"""What every floor test needs: a real Mosquitto on free local ports with the
files ``pontoon-table floor init-broker`` writes, crashes and restarts of it,
and a TCP proxy whose cable can be pulled.

The broker is Debian's ``mosquitto`` (scripts/test.sh installs it).  Its files
come from :func:`floor.broker_setup.write_broker`, so the tests run the very
configuration, password file and ACL an event would ship: two listeners, plain
MQTT on 127.0.0.1 (most tests) and TLS with the generated CA.

The ``broker`` fixture (``conftest.py``) gives a running :class:`BrokerKit`.
"""

from __future__ import annotations

import contextlib
import getpass
import os
import select
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from floor.broker_proc import Mosquitto, find_mosquitto, free_port
from floor.broker_setup import Account, BrokerFiles, table_ids, write_broker

__all__ = [
    "BrokerKit",
    "FloorProcess",
    "Listener",
    "TcpProxy",
    "find_mosquitto",
    "free_port",
    "start_broker",
]


@dataclass
class BrokerKit:
    """A running broker and the accounts in its files."""

    files: BrokerFiles
    proc: Mosquitto
    plain_port: int
    tls_port: int

    @property
    def url(self) -> str:
        """Plain MQTT on this machine: ``mqtt://127.0.0.1:<port>``."""
        return f"mqtt://127.0.0.1:{self.plain_port}"

    @property
    def tls_url(self) -> str:
        return f"mqtts://localhost:{self.tls_port}"

    @property
    def floor(self) -> Account:
        return self.files.floor

    def table(self, table_id: str) -> Account:
        return self.files.tables[table_id]

    def kill(self) -> None:
        """The broker crashes (SIGKILL): what it had not saved is gone."""
        self.proc.kill()

    def stop(self) -> None:
        """A clean stop (SIGTERM): the broker saves its sessions and queues."""
        self.proc.stop()

    def start(self) -> None:
        """(Re)start on the same ports and files; returns once it accepts connections."""
        self.proc.start()


def start_broker(folder: Path, tables: int = 3) -> BrokerKit:
    """Write a broker's files for ``tables`` tables into ``folder`` and start it."""
    plain, tls = free_port(), free_port()
    files = write_broker(
        folder,
        table_ids(tables),
        host="localhost",
        tls_port=tls,
        plain_port=plain,
        user=getpass.getuser(),  # as root, mosquitto would switch to its own user
    )
    proc = Mosquitto(files.conf, [plain, tls])
    proc.start()
    return BrokerKit(files=files, proc=proc, plain_port=plain, tls_port=tls)


class TcpProxy:
    """A TCP relay to ``target`` whose cable can be pulled and plugged back in.

    ``cut()`` drops every open connection and refuses new ones (they are
    accepted and closed at once, as when the far end is unreachable);
    ``restore()`` lets connections through again.  One thread relays all
    connections with ``select``; it is a daemon and stops on ``close()``.
    """

    def __init__(self, target_port: int, target_host: str = "127.0.0.1") -> None:
        self.target = (target_host, target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.connected = True
        self.pairs: dict[socket.socket, socket.socket] = {}
        self.accepted = 0
        self._lock = threading.Lock()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="tcp-proxy", daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def cut(self) -> None:
        with self._lock:
            self.connected = False
            for sock in list(self.pairs):
                self._drop(sock)

    def restore(self) -> None:
        with self._lock:
            self.connected = True

    def close(self) -> None:
        self._closed = True
        self.cut()
        self._thread.join(5)
        self.listener.close()

    def _drop(self, sock: socket.socket) -> None:
        other = self.pairs.pop(sock, None)
        if other is not None:
            self.pairs.pop(other, None)
        for s in (sock, other):
            if s is not None:
                with contextlib.suppress(OSError):
                    s.close()

    def _accept(self) -> None:
        client, _ = self.listener.accept()
        if not self.connected:
            client.close()
            return
        try:
            upstream = socket.create_connection(self.target, timeout=2)
        except OSError:
            client.close()
            return
        self.accepted += 1
        self.pairs[client] = upstream
        self.pairs[upstream] = client

    def _run(self) -> None:
        while not self._closed:
            with self._lock:
                watched = [self.listener, *self.pairs]
            try:
                ready, _, _ = select.select(watched, [], [], 0.1)
            except (OSError, ValueError):
                continue  # a socket closed by cut() between the list and select
            with self._lock:
                for sock in ready:
                    if sock is self.listener:
                        self._accept()
                        continue
                    other = self.pairs.get(sock)
                    if other is None:
                        continue
                    try:
                        data = sock.recv(65536)
                        if data:
                            other.sendall(data)
                            continue
                    except OSError:
                        pass
                    self._drop(sock)


class Listener:
    """A plain MQTT subscriber (paho, its own thread) that keeps what it receives.

    ``messages`` holds ``(topic, payload)`` in arrival order; it resubscribes
    after every reconnection (the broker may have lost the session), and
    ``subscriptions`` counts the broker's acknowledgements of those, so a test
    can wait until the listener is back before letting a publisher through.
    """

    def __init__(
        self, port: int, account: Account, topics: list[str], client_id: str = "listener"
    ) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.messages: list[tuple[str, bytes]] = []
        self.topics = topics
        self.subscribed = threading.Event()
        self.subscriptions = 0
        self._cond = threading.Condition()
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5
        )
        self.client.username_pw_set(account.user, account.password)
        self.client.reconnect_delay_set(min_delay=1, max_delay=2)
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = self._on_subscribe
        self.client.on_message = self._on_message
        self.client.connect_async("127.0.0.1", port, keepalive=10)
        self.client.loop_start()

    def _on_connect(self, client: Any, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        if not reason.is_failure:
            client.subscribe([(t, 1) for t in self.topics])

    def _on_subscribe(self, *_args: Any) -> None:
        with self._cond:
            self.subscriptions += 1
            self._cond.notify_all()
        self.subscribed.set()

    def wait_subscribed(self, times: int, timeout: float) -> bool:
        """Until the broker has acknowledged ``times`` subscriptions in all."""
        with self._cond:
            return self._cond.wait_for(lambda: self.subscriptions >= times, timeout)

    def _on_message(self, _c: Any, _u: Any, message: Any) -> None:
        with self._cond:
            self.messages.append((message.topic, bytes(message.payload)))
            self._cond.notify_all()

    def wait_for(
        self, predicate: Callable[[list[tuple[str, bytes]]], bool], timeout: float
    ) -> bool:
        """Until ``predicate(messages)`` holds (True) or ``timeout`` passes (False)."""
        with self._cond:
            return self._cond.wait_for(lambda: predicate(self.messages), timeout)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


class FloorProcess:
    """``pontoon-table floor serve`` in a child process: start, SIGKILL, start again.

    Ready once its log says it subscribed (each start adds that line once more).
    """

    def __init__(self, kit: BrokerKit, db: str, log: Path) -> None:
        self.port = free_port()
        self.token = "floor-test-token"
        self.args = ["floor", "serve", "--broker", kit.url, "--username", kit.floor.user,
                     f"--password={kit.floor.password}", "--db", db, "--port", str(self.port),
                     "--token", self.token]  # fmt: skip
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    def _subscribed(self) -> int:
        if not self.log.exists():
            return 0
        return self.log.read_text(errors="replace").count("floor: subscribed to")

    def start(self, timeout: float = 60) -> None:
        before = self._subscribed()
        with self.log.open("a") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "controller.cli", *self.args],
                stdout=subprocess.DEVNULL,
                stderr=err,
                env=dict(os.environ, PYTHONUNBUFFERED="1"),
            )
        end = time.monotonic() + timeout
        while self._subscribed() == before:
            if self.proc.poll() is not None or time.monotonic() > end:
                self.kill()
                raise RuntimeError(f"the floor did not subscribe: {self.log.read_text()[-2000:]}")
            time.sleep(0.05)  # polling another process's log

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
