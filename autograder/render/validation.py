"""The text `grade.py validate` prints: a kill matrix per exercise and a one-line verdict."""

from __future__ import annotations

from ..mutation import MutationResult
from ..validate import Validation


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def render_validation(result: Validation) -> str:
    lines: list[str] = []
    for exercise in result.exercises:
        checks = result.checks[exercise]
        mutants = [m for m in result.mutants if m.exercise == exercise]
        lines.append(f"== {exercise}: {len(checks)} checks x {len(mutants)} mutants "
                     "(X = killed on every seed, . = survived, * = the check meant for it)")
        width = max([len(m.name) for m in mutants] + [6])
        lines.append(" " * (width + 2) + " ".join(f"{i + 1:>2}" for i in range(len(checks))))
        for mutant in mutants:
            cells = []
            for check in checks:
                mark = "X" if result.kills[mutant.key].get(check) else "."
                cells.append(f"{mark + ('*' if check in mutant.killed_by else ''):>2}")
            lines.append(f"  {mutant.name:<{width}}" + " ".join(cells))
        discrimination = result.discrimination(exercise)
        for index, check in enumerate(checks):
            kills, alone = discrimination[check]
            note = "  <- kills no catalogued mistake" if kills == 0 else ""
            lines.append(f"  {index + 1:>2} {check}: kills {kills}, {alone} alone{note}")
        lines.append("")
    for finding in result.findings:
        lines.append(f"{finding.kind.upper()}: {finding.subject} (seed {finding.seed}): {finding.detail}")
    for key, found in result.misdiagnosed():  # the reports' diagnosis, proved on the same gradings
        lines.append(f"DIAGNOSIS: {key} was diagnosed as {', '.join(name or 'nothing' for name in found)}")
    # Counted per culprit: a mutant found out on three seeds is one hole.
    counts = {kind: len({f.subject for f in result.findings if f.kind == kind})
              for kind in ("hole", "flake", "false-rejection")}
    verdict = "sound" if result.sound else "NOT sound"
    lines.append(f"validate: {_count(len(result.exercises), 'exercise')}, {_count(len(result.seeds), 'seed')}, "
                 f"{_count(len(result.mutants), 'mutant')}, {_count(len(result.variants), 'variant')}: "
                 f"{_count(counts['hole'], 'hole')}, {_count(counts['flake'], 'flake')}, "
                 f"{_count(counts['false-rejection'], 'false rejection')}: {verdict}.")
    return "\n".join(lines) + "\n"


def render_mutation(result: MutationResult) -> str:
    """The mutation score per exercise, every survivor with its reason (or HOLE), and a verdict."""
    lines = ["== mutation testing: mutmut's operators on solutions/, every mutant graded by the graders"]
    for exercise in result.exercises:
        killed, counted = result.score(exercise)
        equivalent = sum(m.name in result.equivalent for m in result.mutants if m.exercise == exercise)
        score = f"{100 * killed / counted:.0f}%" if counted else "n/a"
        lines.append(f"  {exercise}: {killed}/{counted} non-equivalent mutants killed ({score}), "
                     f"{equivalent} listed as equivalent")
        for mutant in result.survivors(exercise):
            reason = result.equivalent.get(mutant.name)
            lines.append(f"    {'equivalent' if reason else 'HOLE'}: {mutant.name}" + (f"  ({reason})" if reason else ""))
    for name in result.stale:
        lines.append(f"STALE: {name} is listed as equivalent but was killed or is no longer generated.")
    verdict = "sound" if result.sound else "NOT sound"
    lines.append(f"mutate: {_count(len(result.mutants), 'mutant')}, {_count(len(result.holes), 'hole')}, "
                 f"{_count(len(result.stale), 'stale equivalence')}: {verdict}.")
    return "\n".join(lines) + "\n"
