"""Baton for coupled codes, in Python (docs/embedding.md, "Python").

A process joins Baton as a node with a Session, shares its part of a distributed array
(a numpy array, without a copy) under a name, and hands the array from one group's
layout to another's::

    import baton, numpy as np
    rows = baton.layout((1000, 800), np.float64, ["ocean-0", "ocean-1"], dim=0)
    cols = baton.layout((1000, 800), np.float64, ["atm-0", "atm-1", "atm-2"], dim=1, block=16)
    with baton.Session(api="head:7070", node_id="atm-1", coordinator="head:7071",
                       secret_file="/etc/baton/secret") as s:
        part = np.zeros(cols.local_shape(cols.index_of("atm-1")))
        s.share("sst", cols, part)
        s.set_agree(baton.agree_over(MPI.COMM_WORLD))
        result = s.handoff("sst", rows, cols)   # every process of both codes
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence, Union

import numpy

from ._baton import (
    Error,
    HandoffResult,
    InvalidArgument,
    JobFailed,
    Layout,
    RegionTooSmall,
    Timeout,
    UnknownName,
    Unreachable,
)
from ._baton import Session as _NativeSession

__all__ = [
    "Error",
    "HandoffResult",
    "InvalidArgument",
    "JobFailed",
    "Layout",
    "RegionTooSmall",
    "Session",
    "Timeout",
    "UnknownName",
    "Unreachable",
    "agree_over",
    "layout",
]


def layout(
    shape: Sequence[int],
    dtype: Any,
    nodes: Sequence[str],
    *,
    dim: int = 0,
    block: int = 0,
    counts: Sequence[int] = (),
) -> Layout:
    """A layout of a `shape` array of `dtype` elements cut along `dim` (0: rows, 1:
    columns) over `nodes`: in blocks (block=0), block-cyclically (blocks of `block`), or
    in index ranges (node n holds the next counts[n] indices)."""
    if len(shape) not in (1, 2):
        raise InvalidArgument(f"layout: the shape {tuple(shape)} has {len(shape)} dimensions, not 1 or 2")
    rows, cols = (int(shape[0]), 1) if len(shape) == 1 else (int(shape[0]), int(shape[1]))
    return Layout((rows, cols), numpy.dtype(dtype).itemsize, list(nodes), dim, block, [int(c) for c in counts])


def agree_over(comm: Any) -> Callable[[int], int]:
    """The agree function of collective handoffs over an mpi4py communicator holding both
    codes: the largest value, by the collective a C or Fortran code calls for it
    (MPI_Allreduce of one MPI_UINT64_T with MPI_MAX). mpi4py's lowercase `allreduce`
    pickles its object, and a C code's MPI_Allreduce never matches it: both would wait."""
    from mpi4py import MPI

    def agree(value: int) -> int:
        largest = numpy.zeros(1, dtype=numpy.uint64)
        comm.Allreduce(numpy.array([value], dtype=numpy.uint64), largest, op=MPI.MAX)
        return int(largest[0])

    return agree


class Session(_NativeSession):
    """This process as a node of Baton jobs; without `node_id`, a client that submits jobs
    and hands off arrays other processes shared (a coupler). Close it (or use `with`) to
    stop its agent: until then the arrays it shared are held."""

    def __init__(
        self,
        *,
        api: str,
        node_id: str = "",
        coordinator: str = "",
        secret: str = "",
        secret_file: Union[str, Path, None] = None,
        api_token: str = "",
        api_token_file: Union[str, Path, None] = None,
        **options: Any,
    ) -> None:
        if secret_file is not None:
            secret = _first_line(secret_file, "secret_file")
        if api_token_file is not None:
            api_token = _first_line(api_token_file, "api_token_file")
        super().__init__(
            api=api, node_id=node_id, coordinator=coordinator, secret=secret, api_token=api_token, **options
        )

    def share(self, name: str, layout: Layout, array: Any) -> None:  # type: ignore[override]
        """Shares this node's part of `layout` as `name`: `array` (writable, C-contiguous,
        its elements of the layout's size) is read or written in place by handoffs."""
        super().share(name, layout, array)

    def submit(self, job: Union[str, Mapping[str, Any]]) -> str:  # type: ignore[override]
        """Submits a job (docs/runtime.md, "A job"), as JSON text or a dict; its id."""
        return super().submit(job if isinstance(job, str) else json.dumps(job))

    def job(self, id: str) -> dict:  # type: ignore[override]
        """The job as GET /v1/jobs/{id} answers it."""
        return json.loads(super().job(id))

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _first_line(path: Union[str, Path], what: str) -> str:
    try:
        line = Path(path).read_text().splitlines()[0].strip() if Path(path).stat().st_size else ""
    except OSError as e:
        raise InvalidArgument(f"{what}: cannot read {path}: {e.strerror}") from None
    if not line:
        raise InvalidArgument(f"{what}: {path} is empty")
    return line
