"""reports — self-contained HTML balance reports rendered from the analyses' DataFrames.

    from analyses.study import simulate_study, analyse_study
    import reports
    runs, skipped = simulate_study(n_games=2000, n_jobs=2)
    reports.build(analyse_study(runs, skipped), "balance-report.html")

`reports` renders; it never simulates (see analyses.study for what is computed).
"""
from .build import build, headline

__all__ = ["build", "headline"]
