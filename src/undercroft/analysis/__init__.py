"""Analysis: batches of seeded runs, sweeps, comparisons, exact odds and reports.

* :mod:`undercroft.analysis.batch` runs N games of a ruleset on an executor (local
  processes or Dask) and streams one row per run to Parquet (:mod:`.store`);
* a ruleset plugs in with the small interface of :mod:`.plugin` (crawl:
  :mod:`.crawl_batch`, whose metrics come from the event sink :mod:`.crawl_metrics`);
* :mod:`.stats` holds the confidence intervals and tests, :mod:`.report` the HTML page
  with its plots (:mod:`.plots`), :mod:`.catalogue` the DuckDB register of past batches,
  :mod:`.sweep` and :mod:`.compare` grids and A/B comparisons;
* :mod:`.odds` computes exact probabilities by enumerating the rules' own chance nodes.

``docs/analysis.md`` is the designer's guide. Nothing in the rulesets imports this package.
"""
