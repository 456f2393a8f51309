# Type stubs of baton._baton, the native part of the `baton` package (coupling/python/module.cpp).
# Read-only attributes are `Final` (which a stub may declare without a value).
from typing import Any, Callable, Final, Optional

class Error(RuntimeError): ...
class InvalidArgument(Error): ...
class UnknownName(Error): ...
class RegionTooSmall(Error): ...
class Unreachable(Error): ...
class JobFailed(Error): ...
class Timeout(Error): ...

class Layout:
    def __init__(
        self,
        shape: tuple[int, int],
        element_size: int,
        nodes: list[str],
        dim: int = 0,
        block: int = 0,
        counts: list[int] = ...,
    ) -> None: ...
    shape: Final[tuple[int, int]]
    element_size: Final[int]
    nodes: Final[list[str]]
    dim: Final[int]
    block: Final[int]
    counts: Final[list[int]]
    def index_of(self, node: str) -> Optional[int]: ...
    def local_shape(self, part: int) -> tuple[int, int]: ...
    def global_indices(self, part: int) -> list[int]: ...
    def describe(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...

class HandoffResult:
    state: Final[str]  # "done", "failed" or "cancelled"
    ok: Final[bool]
    job: Final[str]
    error: Final[str]
    reused_spec: Final[bool]
    reused_plan: Final[bool]
    bytes: Final[int]
    steps: Final[int]
    predicted_seconds: Final[float]
    measured_seconds: Final[float]
    lower_bound_seconds: Final[float]
    report: Final[dict[str, Any]]

class Session:
    def __init__(
        self,
        *,
        api: str,
        node_id: str = "",
        coordinator: str = "",
        secret: str = "",
        api_token: str = "",
        data_address: str = "127.0.0.1:0",
        rate: float = 1e9,
        backbone_rate: float = 0.0,
        step_startup: float = 1e-3,
        algorithm: str = "",
        timeout: float = 600.0,
    ) -> None: ...
    def share(self, name: str, layout: Layout, array: Any) -> None: ...
    def unshare(self, name: str) -> None: ...
    def set_agree(self, agree: Optional[Callable[[int], int]]) -> None: ...
    def handoff(self, name: str, source: Layout, destination: Layout) -> HandoffResult: ...
    def submit(self, job: str) -> str: ...
    def job(self, id: str) -> str: ...
    def close(self) -> None: ...
    node_id: Final[str]
