"""The house's floors: which wing may import which (docs/architecture.md), read from the
source itself, and no import circle among the modules' top-level imports."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs", "db")

#: A wing (a module name prefix) and the first-party prefixes it must never import.
FORBIDDEN = {
    "bot.games": ("bot.table", "bot.boards", "bot.pictures", "bot.tools", "cogs", "db",
                  "bot.client", "bot.runner", "bot.config", "discord", "asyncio", "sqlite3",
                  "aiosqlite", "asyncpg", "time", "datetime", "argparse"),
    "db": ("bot", "cogs"),
    "bot.text": ("bot.games", "bot.table", "bot.boards", "bot.pictures", "bot.tools", "cogs",
                 "db", "bot.client", "bot.runner", "bot.config"),
    "bot.table": ("bot.boards", "bot.tools", "cogs", "bot.client", "bot.runner", "discord"),
    "bot.pictures": ("bot.table", "bot.boards", "cogs", "db", "discord"),
    "bot.boards": ("cogs", "bot.client", "bot.runner", "bot.tools"),
    "cogs": ("bot.client", "bot.runner", "bot.tools"),
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for package in PACKAGES
            for p in sorted((ROOT / package).rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(module: str, path: Path, top_level_only: bool,
             known: frozenset[str] = frozenset()) -> set[str]:
    """Return the modules ``module`` imports (absolute names), never those only type
    checkers read (``if TYPE_CHECKING:``); with ``top_level_only``, only those imported
    when it is first loaded (not in functions). ``from package import name`` counts as
    importing the submodule when ``name`` is one of ``known``, else the package."""
    tree = ast.parse(path.read_text(), str(path))
    found: set[str] = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in known else base)
        elif isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
        elif top_level_only and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                  ast.Lambda)):
            return  # run only when called, not when the module is loaded
        else:  # every other statement and expression, however deep (async for, match...)
            for child in ast.iter_child_nodes(node):
                visit(child)

    visit(tree)
    return found


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


@pytest.mark.parametrize("wing", list(FORBIDDEN))
def test_no_wing_imports_upward(wing: str) -> None:
    """Each wing imports only the floors below it: games and db nothing of the bot, the
    table and the pictures no Discord and no boards, the boards no cogs."""
    every = _modules()
    modules = {m: p for m, p in every.items() if _under(m, wing)}
    assert modules, wing
    wrong = sorted(
        f"{module} imports {name}"
        for module, path in modules.items()
        for name in _imports(module, path, top_level_only=False, known=frozenset(every))
        if any(_under(name, bad) for bad in FORBIDDEN[wing])
    )
    assert wrong == []


@pytest.mark.parametrize("wing", [w for w, bad in FORBIDDEN.items() if "discord" in bad])
def test_no_wing_reaches_discord_through_another(wing: str) -> None:
    """A wing that imports no Discord reaches none either through the modules it
    imports (the table's names through the text wing, say): it loads without discord.py."""
    every = _modules()
    known = frozenset(every)
    graph = {m: _imports(m, p, top_level_only=False, known=known) for m, p in every.items()}
    wrong = []
    for module in sorted(m for m in every if _under(m, wing)):
        seen, todo = {module}, [(module, [module])]
        while todo:
            name, chain = todo.pop()
            for found in sorted(graph.get(name, ())):
                if _under(found, "discord"):
                    wrong.append(" -> ".join([*chain, found]))
                elif found in every and found not in seen:
                    seen.add(found)
                    todo.append((found, [*chain, found]))
    assert wrong == []


def test_the_engines_draw_on_their_seed_only() -> None:
    """Pure engines: only the seeded random number source (and the hard computer
    player's own seeded draw) imports ``random``; none reads a clock or the network."""
    every = _modules()
    takers = sorted(m for m, p in every.items() if _under(m, "bot.games")
                    and "random" in _imports(m, p, top_level_only=False,
                                             known=frozenset(every)))
    assert takers == ["bot.games.rng", "bot.games.steam.hard"]


def test_no_import_circle() -> None:
    """No module is (through others) imported while it is itself being loaded."""
    modules = _modules()
    known = frozenset(modules)
    graph = {m: {n for n in _imports(m, p, top_level_only=True, known=known)
                 if n in modules and n != m}
             for m, p in modules.items()}
    circles: list[list[str]] = []
    state: dict[str, int] = {}

    def walk(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                circles.append([*path[path.index(nxt):], nxt])
            elif nxt not in state:
                walk(nxt, [*path, nxt])
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            walk(module, [module])
    assert circles == []


def test_the_reader_sees_relative_function_level_and_submodule_imports() -> None:
    """The checks above read what is there: a submodule named in ``from x import y``, an
    import inside a function, and none of ``if TYPE_CHECKING:``."""
    every = _modules()
    known = frozenset(every)
    boards = _imports("bot.boards.service", every["bot.boards.service"], False, known)
    assert "bot.table.service" in boards and "discord" in boards
    base = _imports("cogs.base", every["cogs.base"], False, known)
    assert "bot.client" not in base  # only for the type checker
    starting = _imports("cogs.starting", every["cogs.starting"], False, known)
    assert "cogs.base" in starting  # imported inside a function
    assert "cogs.base" not in _imports("cogs.starting", every["cogs.starting"], True, known)


def test_imports_are_found_however_deep(tmp_path: Path) -> None:
    """The checks see an import in an ``async for``, a ``match`` case or a loop's ``else``
    (not one only type checkers read, nor, at load time, one inside a function)."""
    source = tmp_path / "mod.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    import hidden\n"
        "for x in ():\n    pass\nelse:\n    import loop_else\n"
        "match 1:\n    case 1:\n        import matched\n"
        "async def f():\n    async for x in y:\n        import deep\n"
    )
    found = _imports("pkg.mod", source, top_level_only=False)
    assert {"loop_else", "matched", "deep"} <= found and "hidden" not in found
    loaded = _imports("pkg.mod", source, top_level_only=True)
    assert {"loop_else", "matched"} <= loaded and "deep" not in loaded
