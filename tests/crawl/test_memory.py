"""A long run holds its memory (benchmarks/memory_crawl.py plays 5,000 adventures).

0.2.0 grew by about 0.94 MiB an adventure (tcod's ``dijkstra2d`` leaked C memory on every
call, and a module-level cache kept every game's board alive): 300 adventures would add
about 280 MiB. After a warm-up (caches, allocator pools), 300 more must add under 20 MB.
"""

from __future__ import annotations

import gc
import resource

from undercroft.crawl.content import default_pack
from undercroft.crawl.runner import play


def rss_bytes() -> int:
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize()


def test_three_hundred_adventures_in_one_process_grow_it_by_under_20_mb() -> None:
    pack = default_pack()
    ruleset = pack.ruleset("bone-priest")
    party = list(pack.heroes)[:4]
    for seed in range(30):
        play(ruleset, party, seed=seed, log=False)
    gc.collect()
    before = rss_bytes()
    for seed in range(30, 330):
        play(ruleset, party, seed=seed, log=False)
    gc.collect()
    assert rss_bytes() - before < 20 * 10**6
