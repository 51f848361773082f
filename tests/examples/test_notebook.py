"""examples/quickstart.ipynb runs top to bottom without an error, and its figures show."""
import warnings
from pathlib import Path

import matplotlib
import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOK = Path(__file__).resolve().parents[2] / "examples" / "quickstart.ipynb"


def _draws(cell) -> bool:
    """A code cell that draws a matplotlib figure."""
    return cell.cell_type == "code" and ("plt." in cell.source or ".plot(" in cell.source or "ax." in cell.source)


def test_quickstart_notebook_executes(tmp_path):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()  # raises CellExecutionError on any error
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert (tmp_path / "quickstart-report.html").exists()
    html = [o for o in outputs if o.output_type == "execute_result" and "text/html" in o.get("data", {})]
    assert any("Attacker wins" in o["data"]["text/html"] or "attacker" in o["data"]["text/html"].lower() for o in html)
    figure_cells = [cell for cell in nb.cells if _draws(cell)]
    assert figure_cells, "the notebook has no figure cell"
    for cell in figure_cells:   # each figure cell produced an image (importing reports must not switch the backend)
        assert any("image/png" in o.get("data", {}) for o in cell.outputs), cell.source
    streams = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "TqdmWarning" not in streams and "IProgress" not in streams


def test_importing_reports_keeps_the_matplotlib_backend():
    before = matplotlib.get_backend()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        import reports.figures  # noqa: F401, PLC0415  # lazy: importing it here, under the warnings filter, is the test
    assert matplotlib.get_backend() == before
