"""Gradescope's "Export Submissions": ``submission_metadata.yml`` beside one folder per submission.

Each submission lists its submitters (name, SID, email) and when it was made; a student's newest
submission counts, under their SID, else their email, else the folder's name. Names are never an
id: a student may set theirs to a classmate's login.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path

from .errors import GradeError
from .intake import Submission, is_plain_dir, read_student, visible

_CREATED = re.compile(r"(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(?:\.(\d+))? ?(Z|[+-]\d\d:?\d\d)?")


def _moment(created: str) -> str:
    """A submission's ``created_at`` as text that sorts by time across time zones (UTC, to the
    microsecond), or as it was written where it is no date Gradescope writes."""
    match = _CREATED.fullmatch(created.strip())
    if not match:
        return created
    day, clock, fraction, zone = match.groups()
    zone = "+00:00" if zone in (None, "Z") else zone if ":" in zone else f"{zone[:3]}:{zone[3:]}"
    try:
        moment = datetime.fromisoformat(f"{day}T{clock}.{(fraction or '0')[:6]:0<6}{zone}")
    except ValueError:
        return created
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f")


def _load_metadata(text: str) -> object:
    """Gradescope's submission_metadata.yml, every value read as the text it is: an SID such as
    ``00123``, ``0x10`` or ``1_000`` is an id, never the number YAML 1.1 would make of it, and a
    date stays as Gradescope wrote it. Raises ValueError for a file that is not YAML."""
    import yaml  # only a Gradescope export needs it

    try:
        return yaml.load(text, Loader=_text_loader(yaml))  # noqa: S506 (a SafeLoader that reads less, below)
    except yaml.YAMLError as error:
        raise ValueError(str(error)) from None


def _text_loader(yaml):
    class TextLoader(yaml.SafeLoader):
        """SafeLoader whose only implicit type is null: numbers, booleans and dates stay text."""

    TextLoader.yaml_implicit_resolvers = {
        first: [(tag, pattern) for tag, pattern in resolvers if tag == "tag:yaml.org,2002:null"]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
    return TextLoader


def read_gradescope(root: Path, exercises: tuple[str, ...], notes: list[str]) -> list[Submission]:
    try:
        metadata = _load_metadata((root / "submission_metadata.yml").read_text(encoding="utf-8")) or {}
    except (ValueError, UnicodeDecodeError) as error:
        raise GradeError(f"submission_metadata.yml cannot be read ({type(error).__name__}).") from None
    if not isinstance(metadata, dict):
        raise GradeError("submission_metadata.yml is not a mapping of submissions, as Gradescope writes it.")
    people: list[tuple[str, dict[str, str], str]] = []  # (when it was made, the submitter's fields, folder name)
    for key, entry in sorted(metadata.items(), key=lambda item: str(item[0])):
        folder = root / str(key)
        if Path(str(key)).name != str(key) or str(key) in (".", "..") or not is_plain_dir(folder):
            notes.append(f"submission_metadata.yml lists {key!r}, which is not a submission folder beside it; skipped.")
            continue
        entry = entry if isinstance(entry, dict) else {}
        submitters = entry.get(":submitters") or entry.get("submitters") or [{}]
        created = _moment(str(entry.get(":created_at") or entry.get("created_at") or ""))
        for person in submitters if isinstance(submitters, list) else [{}]:
            person = person if isinstance(person, dict) else {}
            people.append((created, {str(k).lstrip(":"): str(v) for k, v in person.items() if v not in (None, "")},
                           str(key)))
    # A submission made before the roster had the student's SID names them by email alone: the
    # SID their other submissions carry is theirs too, so that the newest of all counts, once.
    sids_by_email: dict[str, set[str]] = {}
    for _, fields, _ in people:
        if fields.get("sid") and fields.get("email"):
            sids_by_email.setdefault(fields["email"], set()).add(fields["sid"])
    newest: dict[str, tuple[str, Submission]] = {}
    for created, fields, key in people:
        known = sids_by_email.get(fields.get("email", ""), set())
        if not fields.get("sid") and len(known) == 1:
            fields = {**fields, "sid": next(iter(known))}
        sid = fields.get("sid") or fields.get("email") or key
        # Not the display name: a student may set it to a classmate's login, which a roster matches
        aliases = tuple(v for k, v in fields.items() if k in ("sid", "email") and v != sid)
        if sid in newest and newest[sid][0] >= created:
            continue
        newest[sid] = (created, read_student(sid, root / key, exercises, aliases=(*aliases, key)))
    listed = {str(k) for k in metadata}
    unlisted = [p.name for p in visible(root) if is_plain_dir(p) and p.name not in listed]
    if unlisted:
        notes.append(f"Graded {len(unlisted)} folders that submission_metadata.yml does not list, by folder name: "
                     f"{', '.join(unlisted[:5])}.")
    return [s for _, s in newest.values()] + [read_student(name, root / name, exercises) for name in unlisted]
