"""HTML and Markdown reports from jinja2 templates in ``templates/``, fed a view-model."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import jinja2
import markupsafe

from ..view import ReportView
from .inert import plain

_MARKDOWN_SPECIALS = re.compile(r"([\\`*_\[\]<>|~#])")


_AUTOLINKS = re.compile(r"(?<=\w):(?=//)|(?<=\bwww)\.", re.IGNORECASE)
# What would open a block where the text starts a line (``> {message}``): a list, a rule, a setext
# underline, or an indented code block.
_BLOCK_START = re.compile(r"^[ \t]*(\d*)([-+=.)])?")
# GitHub pings @user and @org/team and links #123 (and notifies that issue) in the rendered text,
# after Markdown's escapes and entities are read, so neither a backslash nor &#64; stops them; a
# zero-width space between the sign and the name does (their patterns want a letter or digit
# there), as Renovate does to quote release notes. A mail address's domain must follow its @ too.
# Where GitHub would ping or link: after @ and #, and inside GH-123.
_REFERENCES = re.compile(r"(?<=[@#])|(?<=\bGH)(?=-\d)", re.IGNORECASE)
# A bare commit SHA (or a prefix of 7 hex digits or more) is a link too: cut into runs of 6. A word
# must hold a letter to be cut, so that plain numbers stay whole, to be copied.
_SHAS = re.compile(r"\b(?=[0-9]*[a-f])[0-9a-f]{7,40}\b", re.IGNORECASE)
_ZERO_WIDTH_SPACE = "\u200b"


def escape_markdown(text: object) -> str:
    """Student text as literal Markdown: no emphasis, links, images, HTML, table breaks, headings,
    new lines or blocks, math, mentions, issue references or commit links.

    GitHub also turns bare ``http://...`` and ``www.`` text into links; an escaped ``:`` or ``.``
    reads the same but is no longer one.
    """
    text = plain(str(text)).replace("&", "&amp;")
    text = _MARKDOWN_SPECIALS.sub(r"\\\1", text)
    text = _AUTOLINKS.sub(lambda m: "\\" + m.group(), text).replace("\n", " ")
    text = _BLOCK_START.sub(lambda m: m.group(1) + ("\\" + m.group(2) if m.group(2) else ""), text, count=1)
    # GitHub reads $...$ and $$...$$ as math (a student's \Huge text in the comment), and no backslash
    # stops it; an entity, written last so that no escape above splits it, is never a delimiter.
    text = _SHAS.sub(lambda m: _ZERO_WIDTH_SPACE.join(re.findall(".{1,6}", m.group())), text)
    return _REFERENCES.sub(_ZERO_WIDTH_SPACE, text).replace("$", "&#36;")


def code_block(text: object) -> str:
    """A fenced block no content can close early: the fence outgrows any backtick run inside; its
    text is :func:`~autograder.render.inert.plain`, as wherever else a student's text is shown."""
    text = plain(str(text))
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}"


def cut_markdown(text: str, limit: int, note: str) -> str:
    """``text`` cut to at most ``limit`` characters at a line's end, followed by ``note``: a code
    block the cut left open (:func:`code_block`'s fences) is closed first, so the note and
    whatever follows the document are read as Markdown again, not as the block's text."""
    if len(text) <= limit:
        return text
    kept = text[:limit]
    kept = kept[:kept.rfind("\n") + 1] if "\n" in kept else ""
    fence = ""
    for line in kept.splitlines():
        if not fence and _FENCE_OPENING.fullmatch(line):
            fence = line[:-len("text")]
        elif fence and line == fence:
            fence = ""
    return kept + (fence + "\n" if fence else "") + note


_FENCE_OPENING = re.compile(r"`{3,}text")


def _inert(value: object) -> object:
    """Every value a template prints, before HTML escaping: no control characters in text.

    Markup is the output of the templates' own macros, made of values already passed through here.
    """
    return plain(value) if isinstance(value, str) and not isinstance(value, markupsafe.Markup) else value


@lru_cache(maxsize=8)
def environment(templates_dir: str, autoescape: bool) -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(templates_dir), autoescape=autoescape,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             keep_trailing_newline=True, finalize=_inert)
    env.filters["md"] = escape_markdown
    env.filters["codeblock"] = code_block
    return env


def render_html(view: ReportView, templates_dir: Path) -> str:
    return environment(str(templates_dir), True).get_template("report.html.j2").render(report=view)


def render_markdown(view: ReportView, templates_dir: Path) -> str:
    return environment(str(templates_dir), False).get_template("report.md.j2").render(report=view)
