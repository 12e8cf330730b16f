"""Real servers for the tests that need several processes: Daphne on the test database and
Redis (started by ``make test``), and websockets to them.

One pair of Daphne processes is shared by the slow multi-process tests (the ``daphnes``
fixture in tests/conftest.py); a test that kills a process starts its own.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings

# What the shared servers run with: short presence, as the tests inject time.
SERVER_ENV = {
    "PRESENCE_COALESCE_SECONDS": "0.2",
    "LOG_LEVEL": "WARNING",
    "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
}


ASGI_APP = "config.asgi:application"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_environment() -> dict[str, str]:
    """The environment of a process a test starts: this one's, on the test database, and
    without what only the browser tests may turn off (Django's async-safety check)."""
    from django.db import connection

    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    if connection.vendor == "sqlite":
        env["VOG_TEST_SQLITE"] = str(connection.settings_dict["NAME"])
    else:
        parts = urlsplit(os.environ["DATABASE_URL"])
        env["DATABASE_URL"] = urlunsplit(
            parts._replace(path="/" + connection.settings_dict["NAME"])
        )
    return env


class Daphne:
    """One Daphne process serving the site on a free port."""

    def __init__(self, log_dir: Path, env: dict[str, str] | None = None, name: str = "daphne"):
        self.port = free_port()
        self.log_path = log_dir / f"{name}-{self.port}.log"
        self.env = {**server_environment(), **SERVER_ENV, **(env or {})}
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"

    def start(self) -> Daphne:
        log = open(self.log_path, "a")  # noqa: SIM115 (closed with the process)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), ASGI_APP],
            cwd=settings.BASE_DIR,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"Daphne exited: {self.log_path.read_text()[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.1)  # waiting for a process to listen, not for time to pass
        self.kill()
        raise RuntimeError("Daphne did not start")

    def kill(self) -> None:
        """SIGKILL: no cleanup runs, as when a machine or a process dies."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()


class Proxy:
    """A loopback TCP proxy in front of several servers, standing in for nginx's upstream
    (deploy/nginx.conf): each new connection goes to the first backend, in order, whose
    port accepts it (``round_robin``: the order starts one further at each connection),
    so while the first server lives everything reaches it, and once it is gone the next
    one. Bytes are passed through untouched; when either side closes, so does the other.
    It runs on an event loop of its own thread.

        proxy = Proxy([first.port, second.port]).start()
        page.goto(proxy.url + "/")
    """

    def __init__(self, ports: list[int], *, round_robin: bool = False):
        self.ports = list(ports)
        self.round_robin = round_robin
        self.port = free_port()
        self.chosen: list[int] = []  # the backend port of each connection, in order
        self._turn = 0
        self._loop = None
        self._server = None
        self._stopping = None
        self._thread = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Proxy:
        import threading

        ready = threading.Event()

        async def serve() -> None:
            self._stopping = asyncio.Event()
            self._server = await asyncio.start_server(self._connection, "127.0.0.1", self.port)
            ready.set()
            await self._stopping.wait()
            self._server.close()
            others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in others:
                task.cancel()
            await asyncio.gather(*others, return_exceptions=True)

        def run() -> None:
            self._loop = asyncio.new_event_loop()
            try:
                self._loop.run_until_complete(serve())
            finally:
                self._loop.close()

        self._thread = threading.Thread(target=run, daemon=True, name="proxy")
        self._thread.start()
        assert ready.wait(10), "the proxy did not start"
        return self

    async def _connection(self, reader, writer) -> None:
        order = self.ports[self._turn :] + self.ports[: self._turn]
        if self.round_robin:
            self._turn = (self._turn + 1) % len(self.ports)
        for port in order:
            try:
                upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError:  # refused: that server is gone, try the next
                continue
            self.chosen.append(port)
            await asyncio.gather(
                self._pipe(reader, upstream_writer),
                self._pipe(upstream_reader, writer),
                return_exceptions=True,
            )
            return
        writer.close()  # no server answers

    @staticmethod
    async def _pipe(reader, writer) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except OSError:  # reset by a server that died
            pass
        finally:
            writer.close()

    def stop(self) -> None:
        if self._loop is None or self._loop.is_closed():
            return
        self._loop.call_soon_threadsafe(self._stopping.set)
        self._thread.join(timeout=10)


def post_form(server, cookie: str, path: str, data: dict) -> int:
    """A real form post to a server (or a proxy): read a page for the CSRF cookie, then
    post."""
    import urllib.parse
    import urllib.request
    from http.cookiejar import CookieJar

    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.addheaders = [("Cookie", cookie)]
    opener.open(server.url + "/").read()
    token = next(c.value for c in jar if c.name == "csrftoken")
    body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token}).encode()
    request = urllib.request.Request(
        server.url + path,
        data=body,
        headers={"Cookie": f"{cookie}; csrftoken={token}", "Referer": server.url + "/"},
    )
    return opener.open(request).status


def get_json(server, path: str) -> dict:
    """A GET of the site's JSON API."""
    import urllib.request

    with urllib.request.urlopen(server.url + path, timeout=10) as response:
        return json.loads(response.read())


def session_cookie(user) -> str:
    """A real session for ``user`` (as logging in makes), as a Cookie header value."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


class LiveSocket:
    """A websocket to a real server, speaking JSON (``websockets``' asyncio client)."""

    def __init__(self, connection):
        self.connection = connection
        self.state: dict | None = None
        self.received: list[dict] = []

    @classmethod
    async def open(cls, server: Daphne, path: str, cookie: str | None = None) -> LiveSocket:
        from websockets.asyncio.client import connect

        headers = {"Origin": server.url}
        if cookie:
            headers["Cookie"] = cookie
        connection = await connect(
            server.ws_url(path), additional_headers=headers, max_size=None, open_timeout=10
        )
        socket = cls(connection)
        if path.startswith("/ws/site/"):
            # The site's socket sends nothing first: its pong (answered once the opening,
            # the joining of its groups included, is done) says it hears its groups now.
            await socket.send({"type": "ping"})
            await socket.receive_type("pong")
        return socket

    async def send(self, message, *, may_be_closed: bool = False) -> None:
        """Send a message; with ``may_be_closed`` a socket the server already closed is fine
        (what it would have said cannot act then either)."""
        from websockets.exceptions import ConnectionClosed

        try:
            await self.connection.send(message if isinstance(message, str) else json.dumps(message))
        except ConnectionClosed:
            if not may_be_closed:
                raise

    async def receive(self, timeout: float = 10) -> dict:
        import asyncio

        message = json.loads(await asyncio.wait_for(self.connection.recv(), timeout))
        self.received.append(message)
        if message.get("type") == "state":
            self.state = message
        return message

    async def receive_type(self, kind: str, timeout: float = 10) -> dict:
        while True:
            message = await self.receive(timeout)
            if message["type"] == kind:
                return message

    async def state_where(self, predicate, timeout: float = 10) -> dict:
        while True:
            message = await self.receive_type("state", timeout)
            if predicate(message):
                return message

    async def closed_with(self, timeout: float = 10) -> int:
        """Wait for the server to close the socket; its close code."""
        import asyncio

        from websockets.exceptions import ConnectionClosed

        try:
            while True:
                await asyncio.wait_for(self.connection.recv(), timeout)
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else 1006

    async def close(self) -> None:
        await self.connection.close()


class ApiStream:
    """A stream of the bot API (SPEC §15) read as a program reads it: one JSON object a
    line, empty lines kept (as ``None``) with the moment each line came."""

    def __init__(self, server, path: str, token: str, timeout: float = 20):
        import http.client

        self.connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
        self.connection.request("GET", path, headers={"Authorization": f"Bearer {token}"})
        self.response = self.connection.getresponse()
        self.lines: list[tuple[float, dict | None]] = []
        self.ended = False

    @property
    def status(self) -> int:
        return self.response.status

    def read(self) -> dict | None:
        """The next line: an object, or None for a keep-alive; raises ``EOFError`` once
        the server has ended the stream."""
        raw = self.response.readline()
        if not raw:
            self.ended = True
            raise EOFError
        data = json.loads(raw) if raw.strip() else None
        self.lines.append((time.monotonic(), data))
        return data

    def next_object(self, predicate=lambda data: True, within: float = 40) -> dict:
        """The next object satisfying ``predicate`` (keep-alives and others skipped); fails
        with the lines read when none came ``within`` seconds (keep-alives come every few
        seconds, so a stream that stays open but tells nothing is seen too)."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            data = self.read()
            if data is not None and predicate(data):
                return data
        raise AssertionError(f"nothing expected within {within} s; lines: {self.lines[-10:]}")

    def ends_within(self, seconds: float) -> bool:
        """Whether the server ends the stream within ``seconds`` (lines read meanwhile are
        kept)."""
        deadline = time.monotonic() + seconds
        self.connection.sock.settimeout(seconds)
        try:
            while time.monotonic() < deadline:
                self.read()
        except EOFError:
            return time.monotonic() <= deadline
        except OSError:  # timed out: still open
            return False
        return False

    def close(self) -> None:
        self.connection.close()


def api_call(server, method: str, path: str, token: str | None, fields: dict | None = None):
    """A call of the API with a token: (status, JSON answer)."""
    import urllib.error
    import urllib.parse
    import urllib.request

    body = urllib.parse.urlencode(fields or {}).encode() if method == "POST" else None
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    request = urllib.request.Request(server.url + path, data=body, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        text = error.read()
        try:
            return error.code, json.loads(text)
        except ValueError:
            return error.code, {"error": None, "text": text.decode(errors="replace")[:2000]}
