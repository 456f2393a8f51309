"""The consumer of examples/coupled (README.md there): Q ranks of a Python code (mpi4py,
numpy) that receive the producer's 2-D field, every time step, into block-cyclic columns
through Baton, and check every element against what the producer computed. Halfway
through, the code changes its decomposition (blocks of 2 BLOCK columns), as producer.c
knows.

    consumer.py ROWS COLS BLOCK STEPS    (BATON_API, BATON_COORDINATOR, BATON_SECRET_FILE set)
"""

import os
import sys

import numpy as np
from mpi4py import MPI

import baton


def field(rows: np.ndarray, cols: np.ndarray, ncols: int, t: int) -> np.ndarray:
    """The producer's field at step t (producer.c, field()) on the given rows and columns."""
    return t * 1e9 + (rows[:, None] * ncols + cols[None, :]).astype(np.float64)


def main() -> int:
    world = MPI.COMM_WORLD
    code = world.Split(1, world.Get_rank())  # colour 1: the consumer
    rank, size = code.Get_rank(), code.Get_size()
    nrows, ncols, block, steps = (int(a) for a in sys.argv[1:5])
    producers = world.Get_size() - size

    node = f"consumer-{rank}"
    source = baton.layout((nrows, ncols), np.float64, [f"producer-{p}" for p in range(producers)], dim=0)
    consumers = [f"consumer-{q}" for q in range(size)]
    layouts = [baton.layout((nrows, ncols), np.float64, consumers, dim=1, block=b) for b in (block, 2 * block)]
    all_rows = np.arange(nrows, dtype=np.int64)

    with baton.Session(
        api=os.environ["BATON_API"],
        node_id=node,
        coordinator=os.environ["BATON_COORDINATOR"],
        secret_file=os.environ["BATON_SECRET_FILE"],
    ) as session:
        session.set_agree(baton.agree_over(world))  # the same MPI_Allreduce as producer.c
        destination = None
        for t in range(steps):
            if destination is not layouts[t >= steps - steps // 2]:  # the first step, then halfway
                destination = layouts[t >= steps - steps // 2]
                part_index = destination.index_of(node)
                part = np.zeros(destination.local_shape(part_index), dtype=np.float64)
                columns = np.array(destination.global_indices(part_index), dtype=np.int64)
                session.share("field", destination, part)
            part.fill(-1.0)  # nothing left of the step before can pass for this one
            try:
                result = session.handoff("field", source, destination)
            except baton.Error as e:
                print(f"consumer {rank}: step {t}: {type(e).__name__}: {e}", file=sys.stderr, flush=True)
                world.Abort(1)
            wrong = 0 if result.ok else part.size
            if result.ok:
                wrong = int(np.count_nonzero(part != field(all_rows, columns, ncols, t)))
            wrong = code.allreduce(wrong, op=MPI.SUM)
            if rank == 0:
                if wrong:
                    print(f"consumer: step {t}: {wrong} elements wrong ({result})", flush=True)
                else:
                    how = ", an exchange of its kept plan" if result.kept_plan else ""
                    print(f"consumer: step {t}: job {result.job} verified, {result.bytes} bytes{how}", flush=True)
            if wrong:
                world.Abort(1)
    if rank == 0:
        print("verified", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
