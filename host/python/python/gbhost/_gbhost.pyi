"""Type stubs of the extension module (`src/lib.rs`); use the `gbhost` package's wrappers."""

from typing import Optional, Sequence, TypedDict, Union

#: The game's picture: pixels across and down.
SCREEN_WIDTH: int
SCREEN_HEIGHT: int

class ApuState(TypedDict):
    powered: bool
    left_volume: int
    right_volume: int
    vin_left: bool
    vin_right: bool
    panning: int
    frame_sequencer_step: int

class ApuEnvelope(TypedDict):
    volume: int
    initial_volume: int
    increase: bool
    pace: int

class ApuPulse(TypedDict):
    duty: int
    step: int

class ApuSweep(TypedDict):
    pace: int
    negate: bool
    shift: int
    shadow: int
    enabled: bool

class ApuWave(TypedDict):
    output_level: int
    position: int
    sample: int

class ApuNoise(TypedDict):
    lfsr: int
    short: bool
    clock_shift: int
    clock_divider: int

class ApuChannel(TypedDict):
    number: int
    playing: bool
    dac: bool
    output: int
    left: bool
    right: bool
    frequency: int
    hz: float
    length: int
    length_enabled: bool
    envelope: Optional[ApuEnvelope]
    pulse: Optional[ApuPulse]
    sweep: Optional[ApuSweep]
    wave: Optional[ApuWave]
    noise: Optional[ApuNoise]

class GameBoy:
    def __init__(
        self,
        rom: Union[str, bytes],
        model: str = "auto",
        boot_rom: Optional[str] = None,
        scripts: Optional[Sequence[str]] = None,
        history_mib: int = 32,
        audio: bool = False,
    ) -> None: ...
    def step(self, frames: int = 1, render: bool = True) -> None: ...
    buttons: list[str]
    def press(self, *names: str) -> None: ...
    def release(self, *names: str) -> None: ...
    def screen_bytes(self) -> bytes: ...
    def __getitem__(self, key: Union[int, slice, tuple[int, int]]) -> Union[int, bytes]: ...
    def __setitem__(
        self, key: Union[int, slice, tuple[int, int]], value: Union[int, Sequence[int]]
    ) -> None: ...
    def memory_bytes(self, name: str) -> bytes: ...
    @property
    def registers(self) -> dict[str, int]: ...
    def apu_state(self) -> ApuState: ...
    def apu_channel(self, n: int) -> ApuChannel: ...
    @property
    def frame(self) -> int: ...
    @property
    def lag(self) -> int: ...
    @property
    def model(self) -> str: ...
    def save_state(self) -> bytes: ...
    def load_state(self, data: bytes) -> None: ...
    def rewind(self, frames: int) -> int: ...
    def load_script(self, source: str, name: Optional[str] = None) -> int: ...
    def log(self) -> list[str]: ...
    def record_movie(self, path: str, authors: Optional[Sequence[str]] = None) -> None: ...
    def stop_movie(self) -> str: ...

class LinkedPair:
    def __init__(
        self,
        rom1: Union[str, bytes],
        rom2: Union[str, bytes],
        model: str = ...,
        history_mib: int = ...,
    ) -> None: ...
    def step(self, frames: int = ..., render: bool = ...) -> None: ...
    def set_buttons(self, player_index: int, names: Sequence[str]) -> None: ...
    def screen_bytes(self, player_index: int) -> bytes: ...
    def peek(self, player_index: int, addr: int) -> int: ...
    @property
    def frame(self) -> int: ...
    plugged: bool
    @property
    def inexact(self) -> int: ...
    def state_hash(self) -> int: ...
    def rewind(self, frames: int) -> int: ...

def link_demo_rom() -> bytes: ...
