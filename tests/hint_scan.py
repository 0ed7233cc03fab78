"""Finds every hint a grader can hand a student, in the graders' source, for tests/test_hints.py."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

from autograder import checks

# Code a hint must not hand over: numpy calls, powers, raises, keyword arguments, call syntax,
# matrix products, assignments (``g = W @ g``, ``grad *= scale``), return statements and formulas.
CODE = (re.compile(r"\bnp\.\w"), re.compile(r"\*\*"), re.compile(r"\braise\s+[A-Z]"), re.compile(r"//"),
        re.compile(r"\b[A-Za-z_]\w*=[\w\-'\"(]"), re.compile(r"\b[A-Za-z_][\w.]*\("), re.compile(r"\s@\s"),
        re.compile(r"\b[A-Za-z_]\w* [-+*/]?= \w"), re.compile(r"`return\b"),
        re.compile(r"\b[a-z_]+ \* [a-z_]+ \+ [a-z_]+"))


def _hint_positions(trees: list[ast.Module]) -> dict[str, int]:
    """Function name -> the position of its ``hint`` parameter, for the graders' helpers and checks.py."""
    positions = {}
    sources = [ast.parse(inspect.getsource(checks))] + trees
    for tree in sources:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                names = [a.arg for a in node.args.args]
                if "hint" in names:
                    positions[node.name] = names.index("hint")
    return positions


def _strings(node: ast.AST) -> list[str]:
    """The literal text of an expression: constants, and an f-string's fixed parts."""
    return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def grader_hints(graders: Path) -> list[tuple[str, int, str]]:
    """(file, line, text) of every literal that can reach a student as a hint."""
    files = sorted(graders.glob("test_*.py"))
    trees = [ast.parse(p.read_text(encoding="utf-8")) for p in files]
    positions = _hint_positions(trees)
    found = []
    for path, tree in zip(files, trees):
        hinting = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                hinting |= {id(k.value) for k in node.keywords if k.arg in ("hint", "clues")}
                if name in positions and len(node.args) > positions[name]:
                    hinting.add(id(node.args[positions[name]]))
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(re.search("hint|clue", getattr(t, "id", ""), re.I) for t in targets):
                    hinting.add(id(node.value))
            elif isinstance(node, ast.FunctionDef) and re.search("hint|diagnos|clue", node.name):
                hinting |= {id(r.value) for r in ast.walk(node) if isinstance(r, ast.Return) and r.value}
        for node in ast.walk(tree):
            if id(node) in hinting:
                found += [(path.name, node.lineno, text) for text in _strings(node)]
    return found


def code_in(text: str) -> list[str]:
    return [m.group() for pattern in CODE for m in pattern.finditer(text)]
