"""What every adapter shares: the errors, and the targets of the installed frameworks."""

from __future__ import annotations

import importlib
import sys

import pytest

from ctxpact.conformance import Claim, Component
from ctxpact.conformance.adapters import (
    FRAMEWORK_MODULES,
    MissingFrameworkError,
    UnsupportedItemError,
    UnsupportedMessageError,
    framework_targets,
)
from ctxpact.spec import CtxpactError


def _uninstall(monkeypatch: pytest.MonkeyPatch, framework: str, adapter: str) -> None:
    """Make ``import framework`` (and its submodules) fail, and forget the adapter module."""
    for name in [n for n in sys.modules if n.startswith(f"{framework}.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, framework, None)
    monkeypatch.delitem(sys.modules, adapter, raising=False)


@pytest.mark.parametrize(
    ("extra", "framework", "distribution"),
    [
        ("langchain", "langchain_core", "langchain-core"),
        ("autogen", "autogen_core", "autogen-core"),
        ("strands", "strands", "strands-agents"),
        ("langchain-agents", "langchain", "langchain"),
        ("openai-agents", "agents", "openai-agents"),
        ("semantic-kernel", "semantic_kernel", "semantic-kernel"),
    ],
)
def test_an_adapter_without_its_framework_names_the_extra_to_install(
    monkeypatch: pytest.MonkeyPatch, extra: str, framework: str, distribution: str
) -> None:
    module = FRAMEWORK_MODULES[extra]
    _uninstall(monkeypatch, framework, module)
    with pytest.raises(MissingFrameworkError) as raised:
        importlib.import_module(module)
    assert isinstance(raised.value, ImportError)
    assert isinstance(raised.value, CtxpactError)
    assert str(raised.value) == (
        f"{module} needs {distribution}, which is not installed: pip install 'ctxpact[{extra}]'"
    )
    with pytest.raises(MissingFrameworkError):
        framework_targets(required=True)


def test_without_the_frameworks_there_are_no_framework_targets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for extra, framework in (
        ("langchain", "langchain_core"),
        ("autogen", "autogen_core"),
        ("strands", "strands"),
        ("langchain-agents", "langchain"),
        ("openai-agents", "agents"),
        ("semantic-kernel", "semantic_kernel"),
    ):
        _uninstall(monkeypatch, framework, FRAMEWORK_MODULES[extra])
    assert framework_targets() == ()


def test_the_targets_can_be_limited_to_some_frameworks() -> None:
    targets = framework_targets(extras=["strands"])
    assert targets
    assert all(target.name.startswith("strands-agents:") for target in targets)


def test_the_errors_name_the_position_and_the_reason() -> None:
    item = UnsupportedItemError(index=3, item=None, framework="X", reason="null is no message")
    assert isinstance(item, ValueError)
    assert isinstance(item, CtxpactError)
    assert str(item) == "Expected an item X can carry but got null at $[3]: null is no message"
    message = UnsupportedMessageError(index=0, message=object(), framework="X", reason="why")
    assert str(message) == "Expected a X message ctxpact can carry but got object at [0]: why"


def test_every_installed_framework_has_targets_that_claim_generic_only() -> None:
    targets = framework_targets()
    assert len({target.name for target in targets}) == len(targets)
    for target in targets:
        assert target.component in (Component.PROJECTOR, Component.COMPACT_POLICY)
        assert target.claims == frozenset({Claim.GENERIC})
        assert target.version
    # A wrapped trimmer of the first frameworks fails some generic check, each declared.
    assert all(t.expected_failures for t in targets if t.name.startswith("autogen-core:"))
