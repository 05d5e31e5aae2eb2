"""The checking half of the DAP test client (dap_client.py): the DAP JSON schema as
draft-04 validators (DapSchema) and a strict reader of the adapter's stdout (FrameReader).
Both raise or report ProtocolViolation with the offending message and the reason."""
import json
import os
import pathlib
import re
import warnings

with warnings.catch_warnings():
    # RefResolver is deprecated in jsonschema >= 4.18 (Debian 12 ships 4.10); it still works.
    warnings.simplefilter("ignore", DeprecationWarning)
    import jsonschema
    from jsonschema import Draft4Validator, FormatChecker, RefResolver

REPO = pathlib.Path(__file__).resolve().parents[2]
DEFAULT_SCHEMA = REPO / ".." / "shared" / "specs" / "debugAdapterProtocol.json"


class ProtocolViolation(AssertionError):
    """The adapter sent something the protocol does not allow."""


def _upper_first(name):
    return name[:1].upper() + name[1:]


class DapSchema:
    """The DAP schema's definitions, as draft-04 validators (built once per definition)."""

    def __init__(self, path=None):
        path = pathlib.Path(path or os.environ.get("RELAY_DAP_SCHEMA") or DEFAULT_SCHEMA)
        if not path.is_file():
            raise FileNotFoundError("the DAP schema is missing: %s (set RELAY_DAP_SCHEMA)" % path)
        with open(path, encoding="utf-8") as f:
            self.schema = json.load(f)
        self.definitions = self.schema["definitions"]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            self.resolver = RefResolver(base_uri=path.resolve().as_uri(), referrer=self.schema)
        self.formats = FormatChecker()
        # The schema marks integers with these formats; FormatChecker does not know them.
        self.formats.checks("int32")(lambda v: not isinstance(v, int) or -2**31 <= v < 2**31)
        self.formats.checks("uint32")(lambda v: not isinstance(v, int) or 0 <= v < 2**32)
        self._validators = {}

    def validator(self, name):
        if name not in self._validators:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                self._validators[name] = Draft4Validator(self.definitions[name], resolver=self.resolver,
                                                         format_checker=self.formats)
        return self._validators[name]

    def definition_for(self, msg):
        """The definition a message from the adapter must satisfy."""
        kind = msg.get("type") if isinstance(msg, dict) else None
        if kind == "response":
            if msg.get("success") is False:
                return "ErrorResponse" if "body" in msg else "Response"
            name = _upper_first(str(msg.get("command", ""))) + "Response"
            return name if name in self.definitions else "Response"
        if kind == "event":
            name = _upper_first(str(msg.get("event", ""))) + "Event"
            return name if name in self.definitions else "Event"
        if kind == "request":
            name = _upper_first(str(msg.get("command", ""))) + "Request"
            return name if name in self.definitions else "Request"
        return "ProtocolMessage"  # fails below: `type` must be one of the three

    def errors(self, msg):
        """A list of readable problems with `msg` (empty when it is valid)."""
        if not isinstance(msg, dict):
            return ["a message must be a JSON object, not %s" % type(msg).__name__]
        problems = []
        if msg.get("type") not in ("request", "response", "event"):
            problems.append("`type` is %r; it must be request, response or event" % msg.get("type"))
        name = self.definition_for(msg)
        for e in sorted(self.validator(name).iter_errors(msg), key=lambda e: list(e.absolute_path)):
            where = "/".join(str(p) for p in e.absolute_path) or "(message)"
            problems.append("%s: %s at %s" % (name, _leaf_error(e).message, where))
        if msg.get("type") == "response" and msg.get("success") is False and not msg.get("message"):
            problems.append("a failed response must say why in `message`")
        return problems

    def check(self, msg):
        """Raises ProtocolViolation when `msg` is invalid."""
        problems = self.errors(msg)
        if problems:
            raise ProtocolViolation(describe(msg, problems))


def _leaf_error(error):
    """The most specific error under an allOf/anyOf failure (what was actually wrong)."""
    best = jsonschema.exceptions.best_match([error] + list(error.context or []))
    return best if best is not None else error


def describe(msg, problems):
    text = json.dumps(msg, sort_keys=True) if not isinstance(msg, (bytes, str)) else repr(msg)
    if len(text) > 2000:
        text = text[:2000] + "..."
    return "the adapter sent an invalid message:\n  " + "\n  ".join(problems) + "\nmessage: " + text


def frame(obj):
    """`Content-Length: N\\r\\n\\r\\n` + the JSON of obj (or obj itself when it is bytes)."""
    body = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class FrameReader:
    """Splits the adapter's stdout into frames, strictly: the only header is
    `Content-Length: N` and the only bytes outside bodies are the headers. feed() returns
    the complete bodies; a stray byte raises ProtocolViolation as soon as it arrives."""

    HEADER = re.compile(rb"Content-Length: (\d+)\r\n\r\n")
    PREFIX = b"Content-Length: "
    # What may follow PREFIX in a header that has not fully arrived yet.
    PARTIAL_TAIL = re.compile(rb"\d*|\d+(\r(\n(\r)?)?)?")

    def __init__(self):
        self.buf = b""

    def _could_be_header(self, data):
        if len(data) <= len(self.PREFIX):
            return self.PREFIX.startswith(data)
        return data.startswith(self.PREFIX) and self.PARTIAL_TAIL.fullmatch(data[len(self.PREFIX):]) is not None

    def feed(self, data):
        self.buf += data
        bodies = []
        while self.buf:
            m = self.HEADER.match(self.buf)
            if not m:
                if not self._could_be_header(self.buf[:64]) or len(self.buf) >= 64:
                    raise ProtocolViolation("bytes outside a frame on stdout: %r" % self.buf[:200])
                break
            start, length = m.end(), int(m.group(1))
            if len(self.buf) < start + length:
                break
            bodies.append(self.buf[start:start + length])
            self.buf = self.buf[start + length:]
        return bodies

    def finish(self):
        """At end of output: anything left is a truncated frame."""
        if self.buf:
            raise ProtocolViolation("stdout ended inside a frame: %r" % self.buf[:200])
