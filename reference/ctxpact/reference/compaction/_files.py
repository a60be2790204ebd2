"""File tracking: which files the summarized tool calls read and modified (§12).

A tool is classified by the words of its name, never by substring, so ``tools``,
``details``, ``format`` and ``location`` are not file tools. The lists are carried in the
rendered summary's ``## Files Read`` / ``## Files Modified`` sections and read back from there
by the next compaction, so tracking is cumulative without any state in the policy.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ctxpact.reference._arguments import checked_items
from ctxpact.reference._items import java_trim
from ctxpact.reference.compaction._json import Parsed, load_object
from ctxpact.reference.compaction._summary import (
    FILES_MODIFIED_TITLE,
    FILES_READ_TITLE,
    SECTION_ENTRY,
    SECTION_HEADING,
)
from ctxpact.spec import JsonValue, tool_calls

#: A tool whose name has one of these words reads files.
READ_TOOL_WORDS = frozenset({"read", "cat", "grep", "find", "ls", "head", "tail", "less", "view"})
#: A tool whose name has one of these words modifies files.
MODIFY_TOOL_WORDS = frozenset(
    {"write", "edit", "create", "delete", "mkdir", "mv", "rm", "patch", "save", "append"}
)
#: The argument keys that may name a file, in the order they are read.
PATH_KEYS = ("path", "file", "filename", "filepath", "file_path")
#: A string names a file only when it contains one of these characters.
PATH_CHARACTERS = ("/", ".", "\\")

# Separators: "_", "-", "." and the code points up to U+0020 (the spec's whitespace).
_SEPARATORS = re.compile(r"[_\-.\x00-\x20]+")
# camelCase boundaries: lower/digit then upper ("readFile"), and the end of an acronym
# ("HTTPFile" -> "HTTP", "File"). ASCII only, so case rules do not depend on a locale.
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def tool_name_words(name: str) -> tuple[str, ...]:
    """The lower-cased words of a tool name (FIL-3): ``readHTTPFile`` → read, http, file."""
    return tuple(
        word.translate(_ASCII_LOWER)
        for chunk in _SEPARATORS.split(name)
        for word in _CAMEL_BOUNDARY.split(chunk)
        if word
    )


def _is_path(text: str) -> bool:
    # A line feed would break the line-based file sections, so such a value is not a path.
    return bool(text) and "\n" not in text and any(char in text for char in PATH_CHARACTERS)


def _argument_object(arguments: JsonValue) -> dict[str, Parsed] | None:
    if isinstance(arguments, str):
        return load_object(arguments)
    if isinstance(arguments, dict):
        return dict(arguments)
    return None


def extract_file_operations(items: Sequence[JsonValue], *, reads: bool) -> list[str]:
    r"""The files that the tool calls in *items* read (``reads=True``) or modified.

    Implements FIL-1 to FIL-7. Tool calls are found in every shape of §1.4
    (:func:`ctxpact.spec.tool_calls`); a call counts when a word of its name is in
    :data:`READ_TOOL_WORDS` (or :data:`MODIFY_TOOL_WORDS`). Its arguments (JSON text parsed
    to an object, or an object) contribute the string values of :data:`PATH_KEYS`, trimmed,
    that contain ``/``, ``.`` or ``\`` and no line feed. De-duplicated, in first-seen order.
    """
    words = READ_TOOL_WORDS if reads else MODIFY_TOOL_WORDS
    found: dict[str, None] = {}
    for item in checked_items("extract_file_operations", items):
        for call in tool_calls(item):
            if call.name is None or words.isdisjoint(tool_name_words(call.name)):
                continue
            arguments = _argument_object(call.arguments)
            if arguments is None:
                continue
            for key in PATH_KEYS:
                value = arguments.get(key)
                if isinstance(value, str):
                    path = java_trim(value)
                    if _is_path(path):
                        found.setdefault(path)
    return list(found)


def read_file_sections(summary: str | None) -> tuple[list[str], list[str]]:
    """The files listed under ``## Files Read`` and ``## Files Modified`` in a summary.

    Implements PRS-15 (and, with the renderer, PRS-16). Tolerant: a heading line (trimmed)
    starts a section, which runs to the next ``## `` heading; its ``- <path>`` lines
    contribute their trimmed path when it passes the path test of extraction (FIL-6). Any
    number of sections, anywhere; de-duplicated.
    """
    if summary is None:
        return [], []
    heading_prefix = SECTION_HEADING.format(title="")
    entry_prefix = SECTION_ENTRY.format(entry="")
    read_heading = SECTION_HEADING.format(title=FILES_READ_TITLE)
    modified_heading = SECTION_HEADING.format(title=FILES_MODIFIED_TITLE)
    read: dict[str, None] = {}
    modified: dict[str, None] = {}
    target: dict[str, None] | None = None
    for raw_line in summary.split("\n"):
        line = java_trim(raw_line)
        if line == read_heading:
            target = read
        elif line == modified_heading:
            target = modified
        elif line.startswith(heading_prefix):
            target = None
        elif target is not None and line.startswith(entry_prefix):
            path = java_trim(line[len(entry_prefix) :])
            if _is_path(path):
                target.setdefault(path)
    return list(read), list(modified)


def merge_files(*lists: Iterable[str]) -> list[str]:
    """The paths of *lists* in order, each kept at its first occurrence."""
    return list(dict.fromkeys(path for paths in lists for path in paths))
