"""A check answered from its script: every call sent at once, then handed out as the check asks.

:class:`Scripted` is the part of :class:`~autograder.client.StudentModule` that runs a check's
script (:mod:`autograder.script`) through the worker in one go and answers the check's calls from
the replies, in order, for as long as each call is exactly the next one scripted. The worker's
state is kept exactly what calls made one by one would leave:

- the calls the checks were answered since the worker loaded the file are its *history*;
- a worker that ran more than its history (a check that stopped early, or left its script) is
  *stale*: before anything else is asked of it, a fresh worker loads the file and runs the
  history again (:meth:`Scripted._resync`), off the student's time budgets, which the grader's
  choice must never spend.

A scripted call the worker did not answer (out of time, dead, garbled) fails when its own turn
comes, with the words a lone call would get; one stopped by the wall clock alone is sent again,
alone, as any such call is. A batch that held all the replies it may (stream.py's "full") leaves
the rest of the script to be asked one by one.

Time: each call's wait is charged to the student's budgets when the check takes its reply, never
before, so the calls a check never asks for (it stopped at an earlier one) cost the student
nothing. They are the grader's choice, as replays are, and are kept off those budgets, but not
free: both are charged to one *lookahead* allowance (the submission's, as long as its budget).
Once it is spent no check's calls are sent ahead any more (each is asked alone, and charged as
it is), and a worker is not replayed (the next call goes to a fresh worker with no history): a
submission keeps the grader waiting at most its budget, the allowance and one batch beyond it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .budget import Budget
from .problems import StudentProblem
from .script import Call, Digest, Scripts

GONE = -1  # what ``_ran`` says of a worker that ended while it held a history


@dataclass
class Feed:
    """One check's script as the worker answered it."""

    calls: list[Call]
    bodies: list[bytes] = field(default_factory=list)
    seen: list[tuple[bytes, ...]] = field(default_factory=list)  # shared memory after each call (return_args)
    failure: tuple[Exception, int] | None = None  # what the call at len(bodies) gets, and its timeouts
    seconds: tuple[float, ...] = ()  # each call's wait, the unanswered one's last
    charged: int = 0  # the calls whose wait the budgets were charged
    position: int = 0
    digest: str | None = None  # every call answered: what they were answered

    def next_call(self) -> Call | None:
        return self.calls[self.position] if self.position < len(self.calls) else None

    def consumed(self) -> bool:
        return self.position == len(self.calls) and self.digest is not None


class Scripted:
    """Mixed into StudentModule: ``scripts``, ``lookahead``, ``_feed``, ``_prefed``, ``_script_key``, ``_history``,
    ``_ran``, ``_arena`` and the module's ``_ensure_loaded``, ``_check_time_left``,
    ``_restart``, ``_end_worker``."""

    scripts: Scripts | None

    def begin_script(self, key: str) -> None:
        """The calls of check ``key`` (a node id, or script.PLOTS) may come from its script."""
        self._feed = self._prefed.pop(key, None)
        scripted = self.scripts is not None and self.scripts.get(self.exercise, key) and self._allowance().remaining() > 0
        self._script_key = key if self._feed is None and scripted else ""
        if self._feed is None and not self._script_key and self._ran != len(self._history):
            self._resync()  # asked call by call, of a worker that ran ahead: never of a stale one

    def end_script(self) -> str | None:
        """The check is over; the digest of its replies if it was answered exactly its script."""
        feed, self._feed, self._script_key = self._feed, None, ""
        if feed is not None:
            self._leave(feed)
        return feed.digest if feed is not None and feed.consumed() else None

    def prime(self) -> Feed | None:
        """Send the current check's script now, before the check asks (fastpath.py); None where it
        has none or the worker cannot be asked (the check's first call then says why)."""
        try:
            self._check_time_left()
            self._ensure_loaded()
        except StudentProblem:
            return None
        return self._run_script()

    def settle(self) -> Feed:
        """Take every reply of the current check's script as asked for (a known verdict: fastpath.py)."""
        feed, self._feed = self._feed, None
        self._history += feed.calls[feed.position:]
        feed.position = len(feed.calls)
        self._charge(feed, feed.position)
        return feed

    def _charge(self, feed: Feed, upto: int) -> None:
        """Charge the budgets the wait of the calls before ``upto`` not charged yet."""
        spent = sum(feed.seconds[feed.charged:upto])
        feed.charged = max(feed.charged, upto)
        for budget in self._budgets:
            budget.charge(spent)

    def _leave(self, feed: Feed) -> None:
        """The check is done with ``feed``: what the worker took on calls it never asked for is
        charged to the lookahead allowance (the grader's wait all the same)."""
        self._allowance().charge(sum(feed.seconds[feed.charged:]))
        feed.charged = len(feed.seconds)

    def _allowance(self) -> Budget:
        if self.lookahead is None:
            self.lookahead = Budget(self.limits.exercise_seconds, "the grader's lookahead")
        return self.lookahead

    def give_back(self, settled: list[tuple[str, Feed]], current: str) -> None:
        """The replies :meth:`settle` took, last in the history, and the current check's, handed back
        for each check to ask for in turn after all (a pytest run)."""
        del self._history[len(self._history) - sum(len(feed.calls) for _key, feed in settled):]
        for key, feed in settled:
            feed.position = 0
            self._prefed[key] = feed
        if self._feed is not None:
            self._prefed[current] = self._feed
        self._feed, self._script_key = None, ""

    def _run_script(self) -> Feed | None:
        if not self._script_key:
            return self._feed
        calls, self._script_key = self.scripts.get(self.exercise, self._script_key), ""
        if self._ran != len(self._history) and not self._resync():
            return None
        self._ensure_loaded()
        self._feed = self._send(calls)
        return self._feed

    def _fed(self, key: str) -> tuple[Call, bytes, tuple[bytes, ...]] | None:
        """The next scripted reply, if this call (``key``) is the next scripted one; raises the failure
        scripted for it. Any other call leaves the script for good, and a stale worker is resynced."""
        feed = self._run_script()
        if feed is None:
            return None
        call = feed.next_call()
        if call is None or call.key != key:
            self._feed = None
            self._leave(feed)
            if self._ran != len(self._history):
                self._resync()
            return None
        if feed.position == len(feed.bodies) and feed.failure is None:  # a full batch: the rest one by one
            self._feed = None
            self._leave(feed)
            self._resync()
            return None
        if feed.position == len(feed.bodies):  # the call the worker did not answer
            self._charge(feed, feed.position + 1)
            problem, timeouts = feed.failure
            self._restart()  # as after a lone call that failed: a fresh worker next
            self._timeouts += timeouts
            raise problem
        feed.position += 1
        self._charge(feed, feed.position)
        self._history.append(call)
        return call, feed.bodies[feed.position - 1], feed.seen[feed.position - 1]

    def _send(self, calls: list[Call]) -> Feed:
        """Run ``calls`` through the worker at once: each call that hands arrays over in shared memory
        finds them written before it runs, and the grader reads them back before the next call runs."""
        feed, digest = Feed(calls), Digest()
        seen: dict[int, tuple[bytes, ...]] = {}
        batch = self._stream([c.frame for c in calls], holds=self._holds(calls, seen))
        self._ran += len(batch.bodies)
        feed.seconds = batch.seconds
        for index, body in enumerate(batch.bodies):
            feed.bodies.append(body)
            feed.seen.append(seen.get(index, ()))
            digest.add(body, feed.seen[-1])
        if batch.stopped is not None and batch.stopped.how == "full":
            self._end_worker()  # replies it still holds are never read: a replay makes another
            self._ran = GONE
            return feed
        if batch.stopped is not None:
            history, prefed = self._history, self._prefed
            feed.failure = self._stopped(batch.stopped, f"{calls[batch.stopped.index].function}()")
            # Ended: what it was answered stands, and a worker that holds it is made again if needed.
            self._history, self._prefed, self._ran = history, prefed, GONE
            return feed
        feed.digest = digest.hexdigest()
        return feed

    def _holds(self, calls: list[Call], seen: dict | None = None) -> dict:
        """For stream.run: before the first call that shares arrays, write them; after each, read
        them back (into ``seen``) and write the next one's."""
        shared = [i for i, call in enumerate(calls) if call.return_args]
        holds: dict = {}
        for before, index in zip([-1, *shared], shared):
            holds[before] = _then(holds.get(before), lambda index=index: self._arena.write(calls[index].slots))
        if seen is not None:
            for index in shared:
                holds[index] = _then(lambda index=index: seen.__setitem__(index, self._arena.read(calls[index].slots)),
                                     holds.get(index))
        return holds

    def _resync(self) -> bool:
        """A fresh worker that has run exactly the history; False (and a fresh worker with none) if
        it cannot be had, the time spent either way kept off the student's budgets."""
        history = self._history
        self._restart()
        if not history:
            return True
        replays = self._allowance()
        if replays.remaining() <= 0:
            return False
        budgets, self._budgets = self._budgets, (replays,)
        try:
            self._ensure_loaded()
            batch = self._stream([c.frame for c in history], holds=self._holds(history), keep=False)
            replays.charge(sum(batch.seconds))
            if batch.stopped is not None:
                self._restart()
                return False
        except Exception:  # noqa: BLE001 - the next call starts afresh and says what is wrong
            self._restart()
            return False
        finally:
            self._budgets = budgets
        self._history, self._ran = list(history), len(history)
        return True


def _then(first, second):
    """Both steps, in order (either may be None)."""
    steps = [step for step in (first, second) if step is not None]
    return lambda: [step() for step in steps]
