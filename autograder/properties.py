"""Checks over a whole input domain: Hypothesis strategies, run reproducibly on the trusted side.

A grader writes its exercise's input domain once as Hypothesis strategies and hands a property
(a function of one generated case that calls the student and raises on a broken promise) to
:meth:`Cases.check`. Hypothesis draws the cases from a seed derived from the run's seed, with no
example database, a fixed number of examples and no deadline (every case is a call into a
worker), so a report is reproducible from its seed. A public check shrinks a failure to a
minimal case and shows it; a hidden check never shows its case, only that one failed.

Drawing the cases is most of a check's cost and depends only on the strategy and the seed, so
each process draws a check's cases once (against a property that always passes) and replays
that list for every student; the list is also kept on disk (:mod:`casecache`), so the next
process reads it instead. A passing run of Hypothesis visits exactly that list, so the
verdict is the same; only a public check that fails runs Hypothesis itself, to shrink.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from hypothesis.configuration import set_hypothesis_home_dir
from hypothesis import HealthCheck, Phase, Verbosity, example, given, seed, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException
from hypothesis.internal.conjecture import providers as _providers

from . import casecache
from .cachedir import user_cache
from .problems import CheckFailed, StudentProblem, StudentRaised, StudentTimeout

PUBLIC_EXAMPLES = 60
HIDDEN_EXAMPLES = 150
# A timeout, crash or unreadable reply ends the whole check: replaying it while shrinking would
# only cost another timeout per step.
_FATAL = (StudentTimeout,)


def use_cache_home() -> None:
    """Keep Hypothesis's own files (its unicode tables) in the user's cache, never in the folder
    grading was started from: that may be the kit, a class folder or a read-only checkout."""
    cache = user_cache() / "hypothesis"
    try:
        cache.mkdir(parents=True, exist_ok=True)
    except OSError:  # no writable home: a private folder of this process
        cache = Path(tempfile.mkdtemp(prefix="gradient-kit-hypothesis-"))
    set_hypothesis_home_dir(str(cache))


@dataclass(frozen=True)
class Cases:
    """Runs properties over strategies for one check; ``hidden`` comes from the check's marker."""

    seed: int
    hidden: bool
    name: str = ""  # the check's node id: with the strategy's repr, what its drawn cases are remembered by

    def check(self, strategy: st.SearchStrategy, prop: Callable[[Any], None], examples: int | None = None,
              explicit: Iterable[Any] = (), describe: Callable[[Any], str] = repr) -> None:
        """Raise the first broken promise of ``prop`` over ``strategy`` (public: the shrunk one).

        ``explicit`` cases run first on every seed; ``describe`` says how a case reads when the
        student's code raised on it (a failed check's own message already names its call).
        """
        count = examples or (HIDDEN_EXAMPLES if self.hidden else PUBLIC_EXAMPLES)
        explicit = list(explicit)
        drawn = _drawn(f"{self.name} {strategy!r}", strategy, self.seed, count, casecache.grader_folder())
        try:
            for case in [*explicit, *drawn]:
                prop(copy.deepcopy(case))
        except (CheckFailed, StudentProblem) as exc:
            if self.hidden or isinstance(exc, _FATAL):
                raise self._shown(exc, case, describe) from None
            first = (exc, case)
        else:
            return
        self._shrink(strategy, prop, count, explicit, describe, first)

    def _shrink(self, strategy, prop, count, explicit, describe, first) -> None:
        """Run Hypothesis itself on a failing public check, for the smallest failing case."""
        failures: list[tuple[BaseException, Any]] = []

        def run(case):
            if failures and isinstance(failures[0][0], _FATAL):
                raise failures[0][0]
            try:
                prop(case)
            except (CheckFailed, StudentProblem) as exc:
                failures.append((exc, case))
                raise

        test = given(strategy)(run)
        for case in reversed(explicit):
            test = example(case)(test)
        test = settings(max_examples=count, deadline=None, database=None, derandomize=False, phases=(Phase.explicit, Phase.generate, Phase.shrink),
                        suppress_health_check=list(HealthCheck), report_multiple_bugs=False, print_blob=False,
                        verbosity=Verbosity.quiet)(seed(self.seed)(test))
        try:
            with _seed_only():
                test()
        except (CheckFailed, StudentProblem) as exc:
            case = next((c for e, c in reversed(failures) if e is exc), None)
            raise self._shown(exc, case, describe) from None
        except HypothesisException:  # a failure that did not replay (flaky student code): the first one stands
            raise self._shown(*(failures[0] if failures else first), describe) from None
        # Hypothesis found nothing this time (the student's code is not deterministic): the
        # failure seen on the drawn cases stands, unshrunk.
        raise self._shown(*first, describe) from None

    def _shown(self, exc: BaseException, case: Any, describe: Callable[[Any], str]) -> BaseException:
        if not self.hidden:
            if isinstance(exc, CheckFailed):
                return CheckFailed(f"Fails for this case (the smallest the grader found): {exc.message}", exc.hint)
            if isinstance(exc, StudentRaised):
                return StudentRaised(f"{exc.message} (for {describe(case)})"[:2000], exc.hint, exc.detail,
                                     exc.exc_type, exc.exc_mro)
            return exc
        if isinstance(exc, CheckFailed):
            return CheckFailed("Fails on one of the hidden cases (the case stays hidden).", exc.hint)
        if isinstance(exc, StudentRaised):
            # "f() raised ValueError: <the student's own text>": the text could spell out the case.
            what = exc.message.split(":", 1)[0].rstrip(".")
            return StudentRaised(f"{what} on one of the hidden cases (the case stays hidden).",
                                 exc.hint, "", exc.exc_type, exc.exc_mro)
        return exc


def _drawn(key: str, strategy: st.SearchStrategy, seed_value: int, count: int, graders: Path | None = None) -> tuple:
    """The cases Hypothesis draws for ``strategy`` from ``seed_value`` when every case passes.

    A grader builds a fresh strategy object per check, so the list is remembered by the
    strategy's repr (its source), not by the object; on disk, also by the sources of
    ``graders`` (the grader's folder) and the kit, since a composite strategy's repr is only its name.
    """
    return _draw(_Keyed(key, strategy, graders), seed_value, count)


@dataclass(frozen=True)
class _Keyed:
    key: str
    strategy: st.SearchStrategy = field(compare=False, hash=False)
    graders: Path | None = None


@functools.lru_cache(maxsize=256)
def _draw(keyed: _Keyed, seed_value: int, count: int) -> tuple:
    identity = casecache.identity(keyed.key, seed_value, count, keyed.graders)
    kept = casecache.load(identity) if identity is not None else None
    if kept is not None:
        return kept
    cases = _generate(keyed.strategy, seed_value, count)
    if identity is not None:
        casecache.keep(identity, cases)
    return cases


@contextlib.contextmanager
def _seed_only():
    """Draw from the seed alone.

    Hypothesis also mixes in number literals it harvests from every "local" module in sys.modules
    (any outside site-packages and the standard library and not under a folder named test or
    tests: the kit's own modules, a sitecustomize). So the same seed drew other cases in another
    clone path, another Python, or as root in process mode, which imports one more kit module, and
    a result could not be rerun from its recorded seed. There is no public switch for it: its
    harvest is replaced by an empty one while the kit draws (tests/test_properties.py checks that
    an extra local module changes no case, so a Hypothesis that moves it fails there).
    """
    harvest = getattr(_providers, "_get_local_constants", None)
    if harvest is None:
        yield
        return
    _providers._get_local_constants = _no_constants
    _providers.CONSTANTS_CACHE.cache.clear()  # what was allowed from the harvest so far
    try:
        yield
    finally:
        _providers._get_local_constants = harvest
        _providers.CONSTANTS_CACHE.cache.clear()


def _no_constants():
    return _providers.Constants()


def _generate(strategy: st.SearchStrategy, seed_value: int, count: int) -> tuple:
    cases: list[Any] = []

    def keep(case):
        cases.append(case)

    test = given(strategy)(keep)
    test = settings(max_examples=count, deadline=None, database=None, derandomize=False,
                    phases=(Phase.generate,), suppress_health_check=list(HealthCheck),
                    print_blob=False, verbosity=Verbosity.quiet)(seed(seed_value)(test))
    with _seed_only():
        test()
    return tuple(copy.deepcopy(case) for case in cases)
