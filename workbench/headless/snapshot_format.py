"""The snapshot file format: one (dataset, model) pair, one record per request.

A snapshot is plain UTF-8 text meant to be reviewed in a diff, so it never holds
anything a diff tool, an editor or a pre-commit hook would change or hide: no tabs,
no trailing whitespace, no carriage returns, no control characters.  Every prompt line
is written after ``|`` with these marks, so the encoding is one-to-one:

======================  =========================================================
``·``                   a trailing space (spaces inside a line are written as is)
``→``                   a tab
``↵`` at a body's end   the text ends with a newline
``\\x1b`` ``\\u202e``     a control, escape, bidi or invisible character
``\\\\ \\· \\→ \\↵``         a literal ``\\``, ``·``, ``→`` or ``↵``
``\\r``                  a carriage return
======================  =========================================================

Layout (documented for users in docs/snapshots.md, "Snapshot files")::

    # prompt-workbench snapshot 1
    # dataset: "gsm8k"
    # model: "internlm2-chat-7b"
    # model_kind: "lm"
    # inferencer: "GenInferencer"
    # inputs: sha256:…          (what the pair was rendered from, see inputs_hash)
    # selection: all

    === sample 0 ===
    ice: [3, 7]
    tokens: 812               (when the model's own tokenizer counted them)
    --- final input
    | <|im_start|>user
    | Question: …↵

    # end: 1 samples, 1 requests

Records are separated by one blank line and never contain one (an empty prompt line
is ``|``), so a file splits back into records without a parser state machine.

May import: views, loading, bundled, the core, rich and the other headless modules; not tui (the
other front end), commands or ``cli``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, fields
from typing import Any

from ..core.inert_text import UNSAFE_CLASS
from ..core.result import Request, Sample
from ..core.templates.prompt_list import to_json
from .render_filter import label_text

FORMAT_VERSION = 1
MAGIC = f"# prompt-workbench snapshot {FORMAT_VERSION}"
SUFFIX = ".snap"
INPUTS_KEY = "# inputs: "

# what a terminal would act on: core.inert_text's class, so snapshots and panes agree
_UNSAFE = re.compile(f"[{UNSAFE_CLASS}]")
_BODY_SPECIAL = re.compile(f"[{UNSAFE_CLASS}\\\\·→↵\t]")
_GLYPHS = {"\\": "\\\\", "·": "\\·", "→": "\\→", "↵": "\\↵", "\t": "→", "\r": "\\r"}
_TITLE = re.compile(r"^=== sample (\d+)\b")


def _code(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    return _GLYPHS.get(ch) or _code(ch)


def _trailing_start(line: str) -> int:
    end = len(line)
    while end and line[end - 1].isspace():
        end -= 1
    return end


def encode_line(line: str) -> str:
    """One line of prompt text (no ``\\n`` in it) as it appears after ``|``."""
    cut = _trailing_start(line)
    head = _BODY_SPECIAL.sub(_escape, line[:cut])
    tail = "".join("·" if c == " " else "→" if c == "\t" else _GLYPHS.get(c) or _code(c)
                   for c in line[cut:])
    return head + tail


def body_lines(text: str) -> list[str]:
    """A whole text as ``|`` lines; ``↵`` closes a text that ends with a newline."""
    parts = text.split("\n")
    ends_with_newline = len(parts) > 1 and parts[-1] == ""
    if ends_with_newline:
        parts.pop()
    out = []
    for part in parts:
        encoded = encode_line(part)
        out.append(f"| {encoded}" if encoded else "|")
    if ends_with_newline:
        out[-1] += "↵"
    return out


_DECODE = re.compile(r"\\(?:x([0-9a-f]{2})|u([0-9a-f]{4})|U([0-9a-f]{8})|(.))|([·→])", re.S)
_UNESCAPE = {"\\": "\\", "·": "·", "→": "→", "↵": "↵", "r": "\r"}


def decode_body(lines: Sequence[str]) -> str:
    """The text :func:`body_lines` encoded (the proof that the encoding loses nothing)."""
    out = []
    newline = False
    for n, line in enumerate(lines):
        body = line[2:] if line.startswith("| ") else line[1:]
        if n == len(lines) - 1 and body.endswith("↵") and not _escaped_at_end(body):
            body, newline = body[:-1], True

        def one(m: re.Match[str]) -> str:
            hex_ = m.group(1) or m.group(2) or m.group(3)
            if hex_:
                return chr(int(hex_, 16))
            if m.group(4) is not None:
                return _UNESCAPE[m.group(4)]
            return " " if m.group(5) == "·" else "\t"

        out.append(_DECODE.sub(one, body))
    return "\n".join(out) + ("\n" if newline else "")


def _escaped_at_end(body: str) -> bool:
    """Whether the last character is escaped (an odd run of backslashes before it)."""
    run = len(body) - 1 - len(body[:-1].rstrip("\\"))
    return run % 2 == 1


def snap_json(value: Any, indent: int | None = None) -> str:
    """JSON with every unsafe character as a ``\\u`` escape (still valid JSON)."""
    text = json.dumps(value, ensure_ascii=False, indent=indent, default=repr)

    def escape(match: re.Match[str]) -> str:
        code = ord(match.group())
        if code > 0xFFFF:
            code -= 0x10000
            return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
        return f"\\u{code:04x}"

    return _UNSAFE.sub(escape, text)


def _name(text: str) -> str:
    """A role or label inside a ``---``/``===`` line: escaped like body text."""
    return encode_line(text.replace("\n", "\\n"))


# -- what a pair was rendered from --------------------------------------------------------

def _feed(h: Any, value: Any) -> None:
    data = json.dumps(value, ensure_ascii=False, default=repr, separators=(",", ":"))
    h.update(data.encode("utf-8", "surrogatepass"))
    h.update(b"\n")


def _feed_rows(h: Any, rows: Any) -> None:
    """Rows one by one, so a large data set is hashed without one huge string."""
    if isinstance(rows, dict):
        for split, value in rows.items():
            _feed(h, ["split", split])
            _feed_rows(h, value)
    elif isinstance(rows, (list, tuple)):
        _feed(h, ["rows", len(rows)])
        for row in rows:
            _feed(h, row)
    else:
        _feed(h, rows)


def _feed_spec(h: Any, spec: Any, skip: Sequence[str]) -> None:
    if spec is None:
        _feed(h, None)
        return
    for f in fields(spec):
        if f.name in skip:
            continue
        value = getattr(spec, f.name)
        if f.name == "assets":
            # what the model's files hold (templates, tokens, the tokenizer's digest); a model
            # without local files hashes as it did before models had assets
            value = value.identity() if value is not None else None
            if value is None:
                continue
        _feed(h, f.name)
        if f.name == "rows":
            _feed_rows(h, value)
        else:
            _feed(h, value)


def inputs_hash(pair: Any, cache: dict[int, bytes] | None = None) -> str:
    """sha256 of what this pair's render depends on, and of nothing else.

    The dataset's and model's resolved configs (what the config files evaluate to, so
    a comment or an unrelated dataset does not count), the dataset's rows, and whatever
    else the loader put on the specs (e.g. a model's chat template).  Where a spec was
    defined (file and line) is left out: moving a dict does not change a prompt.
    ``cache`` (keyed by spec identity, for one run) hashes a dataset's rows once for all
    its models.
    """
    def digest(spec: Any, skip: Sequence[str]) -> bytes:
        if cache is not None and spec is not None and id(spec) in cache:
            return cache[id(spec)]
        h = hashlib.sha256()
        _feed_spec(h, spec, skip)
        value = h.digest()
        if cache is not None and spec is not None:
            cache[id(spec)] = value
        return value

    h = hashlib.sha256()
    _feed(h, MAGIC)
    # shared by its pairs: cached. rows_version (mtimes) is a cache key, not content
    h.update(digest(pair.dataset, ("source", "rows_origin", "rows_source", "rows_version", "locations")))
    h.update(digest(pair.model_spec, ("source", "locations")))
    return "sha256:" + h.hexdigest()


# -- records ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Record:
    """A block of a snapshot: the header, one request, or the footer."""

    kind: str  # "header", "request", "footer"
    lines: tuple[str, ...]
    sample: int | None = None

    @property
    def title(self) -> str:
        return self.lines[0] if self.lines else ""

    def sort_key(self) -> float:
        if self.kind == "header":
            return -1
        if self.kind == "request" and self.sample is not None:
            return self.sample
        return float("inf")


def header_record(pair: Any, inputs: str, selection: str,
                  judges: tuple[str, str | None] | None = None) -> Record:
    """``judges``: the (dataset, model) a judge pair judges (``--judge``); its header says so,
    and only its header has the two lines, so a model's own snapshot is written as before."""
    role = () if judges is None else (
        f"# role: {snap_json('judge')}",
        f"# judges: {snap_json({'dataset': judges[0], 'model': judges[1]})}",
    )
    return Record("header", (
        MAGIC,
        f"# dataset: {snap_json(pair.dataset_abbr)}",
        f"# model: {snap_json(pair.model_abbr)}",
        *role,
        f"# model_kind: {snap_json(pair.model_kind)}",
        f"# inferencer: {snap_json(pair.inferencer)}",
        f"{INPUTS_KEY}{inputs}",
        f"# selection: {selection}",
    ))


def footer_record(samples: int, requests: int, warnings: Iterable[str]) -> Record:
    lines = [f"# warning: {snap_json(w)}" for w in warnings]
    lines.append(f"# end: {samples} samples, {requests} requests")
    return Record("footer", tuple(lines))


def _message_lines(message: Any) -> list[str]:
    if isinstance(message, dict):
        role = message.get("role")
        text_key = "content" if "content" in message else "prompt"
        body = message.get(text_key)
        if isinstance(role, str) and isinstance(body, str) and set(message) == {"role", text_key}:
            return [f"--- [{_name(role)}]", *body_lines(body)]
    return ["--- message (json)", *(f"| {line}" for line in snap_json(message, indent=2).split("\n"))]


def request_records(sample: Sample) -> list[Record]:
    """The sample's requests, each titled uniquely within the sample."""
    out = []
    seen: dict[str, int] = {}
    for request in sample.requests:
        title = f"=== sample {sample.index}"
        if request.label is not None:
            title += f" · label {_name(label_text(request.label))}"
        if request.turn is not None:
            title += f" · turn {request.turn}"
        n = seen.get(title, 0) + 1
        seen[title] = n
        if n > 1:
            title += f" · #{n}"
        out.append(Record("request", (f"{title} ===", *_request_body(sample, request)), sample.index))
    return out


def _request_body(sample: Sample, request: Request) -> list[str]:
    lines = []
    if sample.source_index != sample.index:
        lines.append(f"source: {sample.source_index}")
    if sample.ice_indices:
        lines.append(f"ice: {snap_json(list(sample.ice_indices))}")
    if request.depends_on:
        lines.append(f"depends_on_turns: {snap_json(list(request.depends_on))}")
    for key, value in request.extra:
        lines.append(f"{_name(str(key))}: {snap_json(_plain(value))}")
    truncation = getattr(request, "truncation", None)
    if truncation is not None and truncation.dropped:
        lines.append(f"ice_kept: {snap_json(list(truncation.kept))} (max_seq_len {truncation.max_seq_len})")
    tokens = getattr(request, "tokens", None)
    if tokens is not None and getattr(tokens, "exact", False):
        # Only a real tokenizer's count: an estimate is a function of the text shown below.
        lines.append(f"tokens: {tokens.total}")
    value = request.model_input
    if isinstance(value, str):
        lines += ["--- final input", *body_lines(value)]
    else:
        for message in value or ():
            lines += _message_lines(_plain(message))
    if request.model_text is not None:
        lines += ["--- chat template text", *body_lines(request.model_text)]
    return lines


def _plain(value: Any) -> Any:
    return to_json(value)


def pair_records(pair: Any, samples: Iterable[Sample], inputs: str, selection: str,
                 judges: tuple[str, str | None] | None = None) -> Iterator[Record]:
    """Header, a record per request, footer; the footer lists the pair's warnings.

    ``samples`` may raise RenderError part-way: it propagates after the records of the
    samples before it (the caller decides whether a partial snapshot is of any use).
    """
    yield header_record(pair, inputs, selection, judges)
    n_samples = n_requests = 0
    for sample in samples:
        n_samples += 1
        for record in request_records(sample):
            n_requests += 1
            yield record
    yield footer_record(n_samples, n_requests, pair.notes.messages)


def record_text(records: Iterable[Record]) -> Iterator[str]:
    """The file's text, a record at a time (records separated by one blank line)."""
    first = True
    for record in records:
        if not first:
            yield "\n"
        first = False
        yield "\n".join(record.lines) + "\n"


def parse_records(lines: Iterable[str]) -> Iterator[Record]:
    """A snapshot file back into records (lines with or without their newline)."""
    block: list[str] = []
    index = 0

    def finish() -> Record:
        if index == 0 and block and block[0].startswith("# prompt-workbench snapshot"):
            return Record("header", tuple(block))
        match = _TITLE.match(block[0])
        if match:
            return Record("request", tuple(block), int(match.group(1)))
        return Record("footer" if block[0].startswith("# ") else "other", tuple(block))

    for raw in lines:
        line = raw[:-1] if raw.endswith("\n") else raw
        if line == "":
            if block:
                yield finish()
                index += 1
                block = []
            continue
        block.append(line)
    if block:
        yield finish()


def read_header(path: Any) -> dict[str, Any] | None:
    """The header fields of a snapshot file (None when it is not one)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            first = f.readline().rstrip("\n")
            if not first.startswith("# prompt-workbench snapshot"):
                return None
            fields_: dict[str, Any] = {}
            for line in f:
                line = line.rstrip("\n")
                if not line.startswith("# "):
                    break
                key, _, value = line[2:].partition(": ")
                try:
                    fields_[key] = json.loads(value)
                except ValueError:
                    fields_[key] = value
            return fields_
    except OSError:
        return None
