"""The strings a projection writes: report notes, tool-result placeholders, the cleared reasoning.

They are part of the observable format (RPT-6, T1-6, T1-7, T2-6, T2-7): the spec quotes the
same text, and every implementation must produce it exactly. Templates use
:meth:`str.format` fields.
"""

from __future__ import annotations

from typing import Final

#: The note of the item stage; ``max_items`` is the budget's ``max_items``.
MAX_ITEMS_NOTE: Final = "maxItems applied: {max_items}"
#: The note of the pair-safe item stage when the newest unit does not fit (PAIR-7, PRJ-32):
#: ``items`` is the newest unit's item count, ``max_items`` the budget's ``max_items``.
NEWEST_UNIT_DROPPED_NOTE: Final = (
    "newest unit dropped: {items} item(s) do not fit maxItems {max_items}"
)
#: The note of the character stage; ``max_approx_chars`` is the budget's ``max_approx_chars``.
MAX_APPROX_CHARS_NOTE: Final = "maxApproxChars applied: {max_approx_chars}"
#: The note of Tier-1: ``cleared`` results newly replaced, ``kept`` = ``max_recent_tool_results``.
TIER1_NOTE: Final = "tier1 microcompact: cleared {cleared} old tool result(s), kept recent {kept}"
#: The note of Tier-2: ``cleared`` reasoning items newly replaced.
TIER2_NOTE: Final = "tier2 reasoning-trim: cleared {cleared} reasoning item(s)"

#: The placeholder output of a cleared tool result whose tool name and call id are known.
TOOL_RESULT_PLACEHOLDER: Final = "[tool result cleared: {name}({call_id})]"
#: ... whose tool name is known but which has no string ``call_id``.
TOOL_RESULT_PLACEHOLDER_NAME_ONLY: Final = "[tool result cleared: {name}]"
#: ... whose ``call_id`` names no known tool call.
TOOL_RESULT_PLACEHOLDER_CALL_ID_ONLY: Final = "[tool result cleared: {call_id}]"
#: ... with neither a known name nor a string ``call_id``.
TOOL_RESULT_PLACEHOLDER_BARE: Final = "[tool result cleared]"

#: The text of the one summary part that a cleared reasoning item carries.
REASONING_CLEARED_TEXT: Final = "[reasoning cleared]"

# Every placeholder but the bare one starts with this and ends with the closing bracket.
PLACEHOLDER_PREFIX: Final = "[tool result cleared: "
PLACEHOLDER_SUFFIX: Final = "]"
# The type of a Responses summary part.
SUMMARY_TEXT: Final = "summary_text"
# The keys a cleared reasoning item loses: its payload.
REASONING_PAYLOAD_KEYS: Final = frozenset({"summary", "content", "text", "encrypted_content"})
SUMMARY: Final = "summary"
CALL_ID: Final = "call_id"
NAME: Final = "name"
TEXT: Final = "text"
OUTPUT: Final = "output"
CONTENT: Final = "content"
TYPE: Final = "type"
