"""Starting `photocap serve` for a test and talking to it: a small HTTP client on the standard
library, and the server process with its memory and descriptors."""
import json
import os
import re
import signal
import subprocess
import time
import http.client
import urllib.parse


class Server:
    """A `photocap serve` process on a free loopback port, stopped by SIGINT."""

    def __init__(self, photocap, folder, arguments=(), token=None, listen="127.0.0.1:0", environment=None):
        self.folder = folder
        # A small frame keeps a debug build usable; the release build in CI is fast at any size.
        size = [] if any(a in arguments for a in ("--size", "--frame-file")) else ["--size", os.environ.get("SERVE_FRAME_SIZE", "1280x960")]
        command = [photocap, "serve", "--listen", listen, "--output", folder, *size, *arguments]
        if token:
            command += ["--token", token]
        self.token = token
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        env={**os.environ, **(environment or {})})
        deadline = time.monotonic() + 30
        line = ""
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            match = re.match(r"photocap serve: (http://\S+)", line)
            if match:
                self.url = match.group(1).split("?")[0]
                parsed = urllib.parse.urlparse(self.url)
                self.host, self.port = parsed.hostname, parsed.port
                return
            if not line and self.process.poll() is not None:
                break
        self.process.kill()
        raise RuntimeError(f"photocap serve did not start: {line!r} {self.process.stderr.read()}")

    def request(self, method, path, body=None, headers=None, timeout=60):
        """(status, headers, body bytes)."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        all_headers = {}
        if self.token:
            all_headers["X-Photocap-Token"] = self.token
        if isinstance(body, (dict, list)):
            body = json.dumps(body)
            all_headers["Content-Type"] = "application/json"
        all_headers.update(headers or {})
        connection.request(method, path, body=body, headers=all_headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, dict(response.getheaders()), data

    def json(self, method, path, body=None, headers=None):
        status, _, data = self.request(method, path, body, headers)
        return status, json.loads(data) if data else None

    def memory_kb(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1))

    def descriptors(self):
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))

    def stop(self, timeout=30):
        """SIGINT, as Ctrl-C; returns the exit status and stderr."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise
        return self.process.returncode, self.process.stderr.read()
