"""The arena: tournaments between agents, ratings and balance reports.

* :mod:`.tournament`: plan seeded games with rotating seats, play them on all
  cores (multiprocessing) or on a Ray cluster, write every game record;
* :mod:`.analysis`: from records, ratings (openskill) with intervals, win rates
  by agent, seat and seat feature with bootstrap intervals, score distributions;
* :mod:`.report`: the balance report (Markdown + HTML + matplotlib PNGs);
* :mod:`.cli`: the ``simulate``, ``report`` and ``agents`` commands.
"""

from .tournament import ArenaError, MatchResult, MatchTask, plan_matches, play_match, run_matches

__all__ = ["ArenaError", "MatchResult", "MatchTask", "plan_matches", "play_match", "run_matches"]
