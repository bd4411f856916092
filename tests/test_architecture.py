"""The shape of the code: dependencies point one way and modules stay small.

ledger/ (the project's wiring) may import claims/, which may import episodes/;
episodes/ never imports claims/, so that whatever needs both has one home.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("ledger", "episodes", "claims")
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 50


def project_modules():
    """{dotted name: path} of every module of the apps and the project, migrations aside."""
    modules = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


MODULES = project_modules()


def imported_modules(module, path):
    """The project modules a file imports, at module level or inside functions.

    A package naming its own submodules (`from claims.admin import claim`) does
    not import itself."""
    imported = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # `from claims import signals` imports claims.signals when that is a module.
            names = [f"{node.module}.{alias.name}" for alias in node.names] + [node.module]
        else:
            continue
        imported.update(name for name in names if name in MODULES and name != module)
    return imported


GRAPH = {name: imported_modules(name, path) for name, path in MODULES.items()}


def test_the_module_list_is_not_empty():
    # Guards every test below against passing on nothing.
    assert {"episodes.models", "claims.models", "ledger.urls"} <= set(MODULES)


@pytest.mark.parametrize("module", [name for name in MODULES if name.startswith("episodes")])
def test_episodes_never_imports_claims(module):
    assert not {name for name in GRAPH[module] if name.split(".")[0] == "claims"}


@pytest.mark.parametrize("module", [name for name in MODULES if not name.startswith("ledger")])
def test_the_apps_never_import_the_project_wiring(module):
    wiring = {"ledger.urls", "ledger.views", "ledger.settings", "ledger.wsgi", "ledger.asgi"}
    assert not GRAPH[module] & wiring


def test_no_import_cycle_between_modules():
    def cycle_from(start, path, seen):
        for name in sorted(GRAPH[path[-1]]):
            if name == start:
                return [*path, name]
            if name not in seen:
                seen.add(name)
                found = cycle_from(start, [*path, name], seen)
                if found:
                    return found
        return None

    cycles = [cycle for name in GRAPH if (cycle := cycle_from(name, [name], set()))]
    assert not cycles, " -> ".join(cycles[0])


@pytest.mark.parametrize("module", sorted(MODULES))
def test_modules_stay_small(module):
    lines = len(MODULES[module].read_text().splitlines())
    assert lines <= MAX_MODULE_LINES, f"{module} has {lines} lines"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_functions_stay_short(module):
    tree = ast.parse(MODULES[module].read_text())
    long = [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert not long, f"{module}: {', '.join(long)}"
