"""Checks over a whole input domain: Hypothesis strategies, run reproducibly on the trusted side.

A grader writes its exercise's input domain once as Hypothesis strategies and hands a property
(a function of one generated case that calls the student and raises on a broken promise) to
:meth:`Cases.check`. Hypothesis draws the cases from a seed derived from the run's seed, with no
example database, a fixed number of examples and no deadline (every case is a call into a
worker), so a report is reproducible from its seed. A public check shrinks a failure to a
minimal case and shows it; a hidden check never shows its case, only that one failed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from hypothesis import HealthCheck, Phase, Verbosity, example, given, seed, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from .problems import CheckFailed, StudentProblem, StudentRaised, StudentTimeout

PUBLIC_EXAMPLES = 60
HIDDEN_EXAMPLES = 150
# A timeout, crash or unreadable reply ends the whole check: replaying it while shrinking would
# only cost another timeout per step.
_FATAL = (StudentTimeout,)


@dataclass(frozen=True)
class Cases:
    """Runs properties over strategies for one check; ``hidden`` comes from the check's marker."""

    seed: int
    hidden: bool

    def check(self, strategy: st.SearchStrategy, prop: Callable[[Any], None], examples: int | None = None,
              explicit: Iterable[Any] = (), describe: Callable[[Any], str] = repr) -> None:
        """Raise the first broken promise of ``prop`` over ``strategy`` (public: the shrunk one).

        ``explicit`` cases run first on every seed; ``describe`` says how a case reads when the
        student's code raised on it (a failed check's own message already names its call).
        """
        count = examples or (HIDDEN_EXAMPLES if self.hidden else PUBLIC_EXAMPLES)
        failures: list[tuple[BaseException, Any]] = []

        def run(case):
            if failures and isinstance(failures[0][0], _FATAL):
                raise failures[0][0]
            try:
                prop(case)
            except (CheckFailed, StudentProblem) as exc:
                failures.append((exc, case))
                raise

        phases = (Phase.explicit, Phase.generate) if self.hidden else (Phase.explicit, Phase.generate, Phase.shrink)
        test = given(strategy)(run)
        for case in reversed(list(explicit)):
            test = example(case)(test)
        test = settings(max_examples=count, deadline=None, database=None, derandomize=False, phases=phases,
                        suppress_health_check=list(HealthCheck), report_multiple_bugs=False, print_blob=False,
                        verbosity=Verbosity.quiet)(seed(self.seed)(test))
        try:
            test()
        except (CheckFailed, StudentProblem) as exc:
            case = next((c for e, c in reversed(failures) if e is exc), None)
            raise self._shown(exc, case, describe) from None
        except HypothesisException:  # a failure that did not replay (flaky student code): the first one stands
            if not failures:
                raise
            raise self._shown(*failures[0], describe) from None

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
