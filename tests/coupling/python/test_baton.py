"""The baton package (coupling/python) against a real coordinator: numpy arrays shared
without a copy and refused when they cannot be (non-contiguous, read-only, wrong element
size, too small), handoffs by a coupler and collective ones, jobs for scripts, and the
errors of a name nobody shared and of a coordinator that is not there."""

import os
import socket
import subprocess
import threading

import numpy as np
import pytest

import baton


def rows_and_columns(shape=(12, 10), producers=("p0", "p1"), consumers=("c0", "c1"), block=3):
    source = baton.layout(shape, np.float64, list(producers), dim=0)
    destination = baton.layout(shape, np.float64, list(consumers), dim=1, block=block)
    return source, destination


def field(shape, t):
    return np.arange(shape[0] * shape[1], dtype=np.float64).reshape(shape) + 1000.0 * t


def test_layouts_say_where_each_part_lies():
    source, destination = rows_and_columns(shape=(10, 7), producers=("p0", "p1", "p2", "p3"), consumers=("c0", "c1", "c2"), block=2)
    assert [source.local_shape(p) for p in range(4)] == [(3, 7), (3, 7), (3, 7), (1, 7)]
    assert [destination.global_indices(q) for q in range(3)] == [[0, 1, 6], [2, 3], [4, 5]]
    assert destination.index_of("c2") == 2 and destination.index_of("x") is None
    assert baton.layout((5,), np.int32, ["a"]).shape == (5, 1)
    uneven = baton.layout((10, 4), np.float64, ["a", "b", "c"], dim=0, counts=[6, 0, 4])
    assert [uneven.local_shape(p) for p in range(3)] == [(6, 4), (0, 4), (4, 4)]
    assert uneven.global_indices(2) == [6, 7, 8, 9] and uneven.counts == [6, 0, 4]
    with pytest.raises(baton.InvalidArgument, match="add up to 9, not the rows' 10"):
        baton.layout((10, 4), np.float64, ["a", "b"], counts=[4, 5])
    with pytest.raises(baton.InvalidArgument, match="node a is named twice"):
        baton.layout((4, 4), np.float64, ["a", "a"])
    with pytest.raises(baton.InvalidArgument, match="has 3 dimensions"):
        baton.layout((2, 2, 2), np.float64, ["a"])


def test_a_coupler_hands_numpy_arrays_over_in_place_and_reuses_the_job_spec(coordinator):
    source, destination = rows_and_columns()
    whole = field(source.shape, 0)
    sessions, parts = [], {}
    try:
        for p, node in enumerate(source.nodes):
            s = baton.Session(**coordinator.session_options(node))
            sessions.append(s)
            parts[node] = np.ascontiguousarray(whole[p * 6:(p + 1) * 6])
            s.share("field", source, parts[node])
        for q, node in enumerate(destination.nodes):
            s = baton.Session(**coordinator.session_options(node))
            sessions.append(s)
            parts[node] = np.zeros(destination.local_shape(q))
            s.share("field", destination, parts[node])
        with baton.Session(**coordinator.session_options()) as coupler:
            for t in range(2):
                expected = field(source.shape, t)
                for p, node in enumerate(source.nodes):
                    parts[node][...] = expected[p * 6:(p + 1) * 6]  # in place: the shared memory
                result = coupler.handoff("field", source, destination)
                assert result.ok, result
                assert result.state == "done" and result.error == ""
                assert result.reused_spec == (t == 1)
                assert result.reused_plan == (t == 1)  # the coordinator kept the first plan
                assert result.bytes == whole.nbytes and result.steps >= 1
                assert result.report["state"] == "done"
                for q, node in enumerate(destination.nodes):
                    # The very arrays given to share() hold the columns: no copy was made.
                    np.testing.assert_array_equal(parts[node], expected[:, destination.global_indices(q)])
    finally:
        for s in sessions:
            s.close()


def test_a_collective_handoff_from_two_threads_agrees_on_one_job_then_exchanges_its_plan(coordinator):
    source, destination = rows_and_columns(producers=("p0",), consumers=("c0",), block=4)
    sent, received = field(source.shape, 7), np.zeros(destination.local_shape(0))
    barrier, values = threading.Barrier(2), []

    def agree(value: int) -> int:  # two threads standing in for two codes' processes
        values.append(value)
        barrier.wait()
        largest = max(values[-2:])
        barrier.wait()
        return largest

    with baton.Session(**coordinator.session_options("p0")) as producer, \
            baton.Session(**coordinator.session_options("c0")) as consumer:
        producer.share("field", source, sent)
        consumer.share("field", destination, received)
        producer.set_agree(agree)
        consumer.set_agree(agree)
        for t in range(2):  # the second an exchange of the plan the agents kept
            sent[...] = field(source.shape, 7 + t)
            received[...] = 0
            results = {}
            thread = threading.Thread(target=lambda: results.update(c=consumer.handoff("field", source, destination)))
            thread.start()
            results["p"] = producer.handoff("field", source, destination)
            thread.join()
            assert results["p"].ok and results["c"].ok
            assert results["p"].job == results["c"].job
            assert results["p"].kept_plan == results["c"].kept_plan == (t == 1)
            assert results["p"].exchange_error == ""
            np.testing.assert_array_equal(received, sent)


def test_arrays_that_cannot_be_shared_in_place_are_refused_with_the_reason(coordinator):
    layout = baton.layout((4, 6), np.float64, ["p0"], dim=0)
    with baton.Session(**coordinator.session_options("p0")) as s:
        wide = np.zeros((4, 12))
        with pytest.raises(baton.InvalidArgument, match="not C-contiguous"):
            s.share("field", layout, wide[:, ::2])
        frozen = np.zeros((4, 6))
        frozen.setflags(write=False)
        with pytest.raises(baton.InvalidArgument, match="read-only"):
            s.share("field", layout, frozen)
        with pytest.raises(baton.InvalidArgument, match="elements are 4 bytes, the layout's 8"):
            s.share("field", layout, np.zeros((4, 6), dtype=np.float32))
        with pytest.raises(baton.RegionTooSmall, match="4 x 6 elements of 8 bytes = 192 bytes, the memory given holds 160"):
            s.share("field", layout, np.zeros((4, 5)))
        with pytest.raises(baton.InvalidArgument, match="buffer protocol"):
            s.share("field", layout, [0.0] * 24)
        shared = np.zeros((4, 6))
        s.share("field", layout, shared)
        # The session holds the array's buffer: numpy will not move its memory meanwhile.
        with pytest.raises(ValueError):
            shared.resize((100, 100))
        s.unshare("field")
        shared.resize((8, 6), refcheck=False)


def test_a_job_that_runs_and_fails_is_a_result_not_an_exception(coordinator):
    source, destination = rows_and_columns(producers=("p0",), consumers=("c0",))
    sent = np.ones(source.local_shape(0))
    with baton.Session(**coordinator.session_options("p0")) as p0, \
            baton.Session(**coordinator.session_options("c0")), \
            baton.Session(**coordinator.session_options()) as coupler:
        p0.share("field", source, sent)  # c0 shares nothing: its agent refuses the plan
        result = coupler.handoff("field", source, destination)
        assert not result.ok and result.state == "failed"
        assert "agent c0 refused the plan" in result.error
        assert result.report["state"] == "failed"


def test_a_name_nobody_shared_is_unknown(coordinator):
    source, destination = rows_and_columns(producers=("p0",), consumers=("c0",))
    with baton.Session(**coordinator.session_options("p0")) as s:
        with pytest.raises(baton.UnknownName, match="node p0 shared no array named wind"):
            s.handoff("wind", source, destination)
        with pytest.raises(baton.UnknownName):
            s.unshare("wind")


def test_a_coordinator_that_is_not_there_or_died_is_unreachable(coordinator):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        nowhere = f"127.0.0.1:{probe.getsockname()[1]}"
    with pytest.raises(baton.Unreachable, match="did not register it within 300 ms"):
        baton.Session(api=nowhere, node_id="p0", coordinator=nowhere, secret="s", timeout=0.3)
    source, destination = rows_and_columns(producers=("p0",), consumers=("c0",))
    with baton.Session(**coordinator.session_options("p0")) as s:
        s.share("field", source, np.zeros(source.local_shape(0)))
        coordinator.kill()
        with pytest.raises(baton.Unreachable, match="cannot reach the coordinator's API"):
            s.handoff("field", source, destination)


def test_scripts_submit_jobs_and_read_them(coordinator):
    layout = baton.layout((8, 8), np.uint8, ["a"], dim=0)
    other = baton.layout((8, 8), np.uint8, ["b"], dim=0)
    data = np.arange(64, dtype=np.uint8).reshape(8, 8)
    out = np.zeros((8, 8), dtype=np.uint8)
    with baton.Session(**coordinator.session_options("a")) as a, baton.Session(**coordinator.session_options("b")) as b:
        a.share("x", layout, data)
        b.share("y", other, out)
        script = baton.Session(api=coordinator.api)
        job = script.submit({
            "senders": ["a"], "receivers": ["b"],
            "platform": {"sender_rate": 1e8, "receiver_rate": 1e8, "backbone_rate": 1e8, "step_startup": 0.001},
            "transfers": [{"src_node": "a", "src_file": "x", "src_offset": 0, "length": 64,
                           "dst_node": "b", "dst_file": "y", "dst_offset": 0}],
        })
        state = script.job(job)
        while state["state"] not in ("done", "failed", "cancelled"):
            threading.Event().wait(0.02)
            state = script.job(job)
        assert state["state"] == "done", state
        np.testing.assert_array_equal(out, data)
        with pytest.raises(baton.UnknownName):
            script.job("999")
        with pytest.raises(baton.JobFailed, match="refused"):
            script.submit({"senders": ["a"]})
        script.close()


# CTest's test_coupling_fortran runs it (-k fortran) with BATON_FORTRAN_HANDOFF set, or
# reports it skipped in a tree configured without a Fortran compiler.
def test_the_fortran_module_hands_an_array_over(coordinator):
    run = subprocess.run(
        [os.environ["BATON_FORTRAN_HANDOFF"], coordinator.api, coordinator.agents, str(coordinator.secret_file)],
        capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 0 and "fortran: verified" in run.stdout, run.stdout + run.stderr
