"""Compaction: policies that replace old memory with a summary, and the pieces they share.

``StructuredSummaryCompactPolicy`` is deterministic (a projection plus a fixed summary);
``LlmCompactPolicy`` asks a model to summarize the old turns. The turn-boundary cut, file
tracking, the forgiving parser and the Markdown rendering are public so that other
implementations can be checked against them piece by piece. Every string of the format is a
named constant here, and SPEC.md quotes the same text.
"""

from ctxpact.reference.compaction._cut import find_turn_boundary_cut
from ctxpact.reference.compaction._files import (
    MODIFY_TOOL_WORDS,
    PATH_CHARACTERS,
    PATH_KEYS,
    READ_TOOL_WORDS,
    extract_file_operations,
    read_file_sections,
    tool_name_words,
)
from ctxpact.reference.compaction._llm import (
    CONVERSATION_BLOCK,
    DEFAULT_MAX_ITEMS,
    FILE_LIST,
    FILE_LIST_SEPARATOR,
    FILES_BLOCK,
    PREVIOUS_SUMMARY_BLOCK,
    SUMMARIZER_SYSTEM_PROMPT,
    SUMMARY_UNAVAILABLE,
    LlmCompactPolicy,
    summary_request_content,
)
from ctxpact.reference.compaction._policy import (
    CompactPolicy,
    CompactPolicyMemoryCompressor,
    WindowedMemoryCompressor,
)
from ctxpact.reference.compaction._structured import (
    AUTHORITATIVE_CONTEXT_LINE,
    COMPACT_SUMMARY_MARKER,
    EXISTING_SUMMARY_LINE,
    PROJECTION_LINE,
    PROJECTION_LINE_WITH_DROPS,
    StructuredSummaryCompactPolicy,
    carried_summary,
)
from ctxpact.reference.compaction._summary import (
    FILES_MODIFIED_TITLE,
    FILES_READ_TITLE,
    GOAL_KEY,
    GOAL_TITLE,
    SECTION_ENTRY,
    SECTION_HEADING,
    SUMMARY_LIST_KEYS,
    SUMMARY_LIST_TITLES,
    parse_structured_summary,
    render_structured_summary,
)

__all__ = [
    "AUTHORITATIVE_CONTEXT_LINE",
    "COMPACT_SUMMARY_MARKER",
    "CONVERSATION_BLOCK",
    "DEFAULT_MAX_ITEMS",
    "EXISTING_SUMMARY_LINE",
    "FILES_BLOCK",
    "FILES_MODIFIED_TITLE",
    "FILES_READ_TITLE",
    "FILE_LIST",
    "FILE_LIST_SEPARATOR",
    "GOAL_KEY",
    "GOAL_TITLE",
    "MODIFY_TOOL_WORDS",
    "PATH_CHARACTERS",
    "PATH_KEYS",
    "PREVIOUS_SUMMARY_BLOCK",
    "PROJECTION_LINE",
    "PROJECTION_LINE_WITH_DROPS",
    "READ_TOOL_WORDS",
    "SECTION_ENTRY",
    "SECTION_HEADING",
    "SUMMARIZER_SYSTEM_PROMPT",
    "SUMMARY_LIST_KEYS",
    "SUMMARY_LIST_TITLES",
    "SUMMARY_UNAVAILABLE",
    "CompactPolicy",
    "CompactPolicyMemoryCompressor",
    "LlmCompactPolicy",
    "StructuredSummaryCompactPolicy",
    "WindowedMemoryCompressor",
    "carried_summary",
    "extract_file_operations",
    "find_turn_boundary_cut",
    "parse_structured_summary",
    "read_file_sections",
    "render_structured_summary",
    "summary_request_content",
    "tool_name_words",
]
