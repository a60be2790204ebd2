"""Read ctxpact documents with the Pydantic models datamodel-code-generator made, write them back.

Run by tests/spec/test_codegen.py as ``python roundtrip.py SCHEMAS_DIR MODELS_PARENT``: standard
input has one JSON object a line, ``{"schema": NAME, "document": DOCUMENT}``; standard output
gets one line for each, ``{"document": WRITTEN}`` or ``{"error": MESSAGE}``. ``MODELS_PARENT``
holds the generated package ``ctxpact_models``.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError


def model_of(schemas: Path, name: str) -> type[BaseModel]:
    """The generated model of the schema *name*: its module by path, its class by title."""
    module = "ctxpact_models." + name.replace("/", ".").replace("-", "_") + "_schema"
    title = json.loads((schemas / f"{name}.schema.json").read_text(encoding="utf-8"))["title"]
    found: type[BaseModel] = getattr(importlib.import_module(module), title)
    return found


def round_trip(model: type[BaseModel], document: Any) -> Any:  # noqa: ANN401 - any JSON value
    """*document* read with *model* and written again, without the defaults it left out."""
    # json.loads, not model_validate_json: Pydantic's JSON parser refuses a lone surrogate.
    value = model.model_validate(document)
    return value.model_dump(mode="json", exclude_unset=True)


def main() -> None:
    """Answer every request line of standard input."""
    schemas, parent = Path(sys.argv[1]), sys.argv[2]
    sys.path.insert(0, parent)
    for line in sys.stdin:
        request = json.loads(line)
        try:
            written = {
                "document": round_trip(model_of(schemas, request["schema"]), request["document"])
            }
        except ValidationError as error:
            written = {"error": str(error)}
        sys.stdout.write(json.dumps(written) + "\n")


if __name__ == "__main__":
    main()
