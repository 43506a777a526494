"""The shape of the code: no import cycles, no oversized module.

``lint-imports`` (contracts in ``pyproject.toml``) checks which package may
import which; it has no contract for "no cycle between any two modules of the
whole project", so this file asks grimp (import-linter's graph library) for
the module graph and looks for cycles itself.  The graph counts every import:
at the top of a module, inside a function (a lazy import) and under
``if TYPE_CHECKING:`` (grimp keeps those unless told otherwise).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("controller", "firmware_bridge", "vision", "dealer_display", "hardware_sim")
MAX_LINES = 800
#: modules allowed over MAX_LINES for now, each with the reason
OVERSIZED: dict[str, str] = {}

_FROM_PACKAGE = re.compile(r"^\s*from\s+([\w.]+)\s+import\b")


def import_graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports, every kind of import counted.

    ``from hardware_sim.camera import effects`` is recorded by grimp as an
    import of ``hardware_sim.camera.effects``; it also runs (and reads from)
    the package's ``__init__``, so an edge to the package is added too: that
    is how ``camera/__init__`` -> ``frames`` -> ``camera`` was a cycle.
    """
    graph = grimp.build_graph(*PRODUCT, cache_dir=None)
    edges: dict[str, set[str]] = {module: set() for module in graph.modules}
    for importer in graph.modules:
        for imported in graph.find_modules_directly_imported_by(importer):
            edges[importer].add(imported)
            for detail in graph.get_import_details(importer=importer, imported=imported):
                named = _FROM_PACKAGE.match(str(detail["line_contents"]))
                if named and named.group(1) in edges and named.group(1) != importer:
                    edges[importer].add(named.group(1))
    return edges


def cycles(edges: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_the_cycle_finder_finds_a_cycle_of_three_and_nothing_in_a_chain() -> None:
    """Hand-made graphs: a -> b -> c -> a is one cycle; d -> e -> f none."""
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"e"}, "e": {"f"}, "f": set()}
    assert cycles(edges) == [["a", "b", "c"]]
    assert cycles({"d": {"e"}, "e": {"f"}}) == []


def test_a_from_package_import_counts_as_importing_the_package() -> None:
    """frames.py names its package in ``import ... effects``; whichever way it is
    written, the package's ``__init__`` imports frames, so a ``from
    hardware_sim.camera import effects`` there would show as a cycle."""
    edges = import_graph()
    assert "hardware_sim.camera.frames" in edges["hardware_sim.camera"]
    # hardware_sim/__main__.py: ``from hardware_sim import cli``
    assert "hardware_sim" in edges["hardware_sim.__main__"]


def test_no_two_modules_of_the_product_import_each_other_round_a_cycle() -> None:
    edges = import_graph()
    assert len(edges) > 80  # the whole product was read
    assert cycles(edges) == []


def test_no_product_module_is_over_800_lines() -> None:
    sizes = {
        str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines())
        for package in PRODUCT
        for path in (ROOT / package).rglob("*.py")
    }
    assert len(sizes) > 50
    over = {name: lines for name, lines in sizes.items() if lines > MAX_LINES}
    assert set(over) <= set(OVERSIZED), over
