"""Named sets of result tables, printable as text (what the CLI shows)."""
from __future__ import annotations

import dataclasses

import pandas as pd

P_VALUE_COLUMNS = ("p_value", "chi2_p", "diff_p")


@dataclasses.dataclass(frozen=True)
class Tables:
    """Base for the result of a balance question: each field is a DataFrame."""

    def tables(self) -> dict[str, pd.DataFrame]:
        """The printable tables by name (fields marked metadata={"table": False} are left out)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.metadata.get("table", True)}

    def to_text(self) -> str:
        blocks = [f"== {name} ==\n{format_table(table)}" for name, table in self.tables().items() if len(table)]
        return "\n\n".join(blocks)

    def __str__(self) -> str:
        return self.to_text()


def format_table(df: pd.DataFrame) -> str:
    """Readable text: 4 significant digits, p-values to 3, no index."""
    formatters = {c: _p_value for c in df.columns if c in P_VALUE_COLUMNS}
    return df.to_string(index=False, float_format=lambda v: f"{v:.4g}", formatters=formatters, na_rep="-")


def _p_value(value) -> str:
    if pd.isna(value):
        return "-"
    return f"{value:.3g}" if value >= 1e-300 else "<1e-300"


def front(table: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    """`table` with `columns` moved to the front."""
    return table[columns + [c for c in table.columns if c not in columns]]


def stack(tables: list[pd.DataFrame]) -> pd.DataFrame:
    """Concatenate the non-empty tables (an empty DataFrame when there are none)."""
    tables = [t for t in tables if len(t)]
    return pd.concat(tables, ignore_index=True) if tables else pd.DataFrame()
