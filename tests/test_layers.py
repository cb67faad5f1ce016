"""The package's layers, read from the source: every module's imports (at the top and inside
functions) go only downward, core <- papers <- verify <- book <- batch, and no two modules import
each other, directly or through others."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "privlib"
LAYERS = ("core", "papers", "verify", "book", "batch")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(path: Path, name: str, known: set[str]) -> set[str]:
    """The privlib modules ``path`` imports anywhere in its body (``from privlib.x import y``
    counts ``privlib.x.y`` when that is a module, else ``privlib.x``)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return {m for m in found if m == "privlib" or m.startswith("privlib.")}


def _layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else None


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: _imports(path, name, known) & known for name, path in modules.items()}


def test_every_layer_imports_only_the_layers_below_it():
    wrong = []
    for module, targets in _graph().items():
        here = _layer(module)
        if here is None:  # privlib/__init__.py: the short names, resolved on first use
            continue
        for target in targets:
            there = _layer(target)
            if target == "privlib":  # the root package: short names, imported on first use
                continue
            if there is None or there > here:
                wrong.append(f"{module} imports {target}")
            # book and batch reach the verification layer only through its registry and its ledger
            elif there == LAYERS.index("verify") < here and target not in (
                    "privlib.verify", "privlib.verify.claims", "privlib.verify.ledger"):
                wrong.append(f"{module} imports {target} (only the registry and the ledger, privlib.verify.claims/ledger)")
    assert not wrong, "imports against the layers:\n" + "\n".join(sorted(wrong))


def test_the_core_imports_no_paper_module():
    core = {m: t for m, t in _graph().items() if _layer(m) == 0}
    assert core, "no module found under privlib/core"
    assert not [f"{m} imports {t}" for m, targets in core.items() for t in targets if _layer(t) != 0]


def test_no_import_cycle():
    graph = _graph()
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                cycles.append(path[path.index(target):] + [target] if target in path else [node, target])
            elif target not in state:
                visit(target, [*path, target])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_the_checker_sees_imports_inside_functions(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("def f():\n    from privlib.book import prose\n    import privlib.core.notions\n")
    known = {"privlib.book.prose", "privlib.book", "privlib.core.notions"}
    assert _imports(source, "privlib.verify.m", known) == {"privlib.book.prose", "privlib.core.notions"}
