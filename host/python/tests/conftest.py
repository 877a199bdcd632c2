"""Shared by the Python tests: the shared test ROMs (`../shared/roms` beside the repository, or
`GBHOST_TEST_ROMS`; missing: a loud skip, or a failure with `CI=true`), a private state key,
and a tiny ROM made here."""

import os
import pathlib
import struct
import subprocess
import tempfile
import zlib

import numpy as np

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]
ROMS = pathlib.Path(os.environ.get("GBHOST_TEST_ROMS", REPO.parent / "shared" / "roms"))

# Scripts' images in states are sealed with the user's key: tests use their own.
os.environ.setdefault(
    "GBHOST_STATE_KEY", str(pathlib.Path(tempfile.gettempdir()) / f"gbhost-pytest-{os.getpid()}.key")
)


def shared_rom(relative: str) -> pathlib.Path:
    path = ROMS / relative
    if path.is_file():
        return path
    if os.environ.get("CI") in ("true", "1"):
        pytest.fail(f"CI=true but the test ROM {path} is missing (set GBHOST_TEST_ROMS)")
    pytest.skip(f"*** SKIPPED: test ROM {path} not found (set GBHOST_TEST_ROMS) ***")


@pytest.fixture
def cpu_instrs():
    return shared_rom("blargg/cpu_instrs/cpu_instrs.gb")


@pytest.fixture
def tobu():
    return shared_rom("homebrew/tobutobugirl/tobutobugirl.gb")


def tiny_rom() -> bytes:
    """32 KiB, ROM only, DMG: the entry point jumps to an endless `inc a` loop at $0150."""
    rom = bytearray(0x8000)
    rom[0x100:0x104] = bytes([0x00, 0xC3, 0x50, 0x01])  # nop; jp $0150
    rom[0x134:0x13F] = b"PYTEST"[:11].ljust(11, b"\0")
    rom[0x150:0x153] = bytes([0x3C, 0x18, 0xFD])  # inc a; jr -3
    rom[0x14D] = (-sum(rom[0x134:0x14D]) - 25) & 0xFF
    return bytes(rom)


@pytest.fixture
def tiny():
    return tiny_rom()


def cli(args):
    """Run the `gbhost` binary the Rust build made (`target/debug` or `target/release`)."""
    for build in ("debug", "release"):
        exe = REPO / "target" / build / "gbhost"
        if exe.is_file():
            out = subprocess.run([str(exe), *args], capture_output=True, text=True, env=os.environ)
            assert out.returncode == 0, out.stderr
            return out.stdout
    if os.environ.get("CI") in ("true", "1"):
        pytest.fail("CI=true but the gbhost binary is not built (cargo build)")
    pytest.skip("the gbhost binary is not built (cargo build)")


def read_png_rgb(path) -> np.ndarray:
    """An 8-bit RGB PNG (as `gbhost headless --screenshot` writes them) as an H x W x 3 array."""
    data = pathlib.Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            assert (depth, color) == (8, 2), "8-bit RGB"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * 3
    out = np.zeros((height, stride), dtype=np.int32)
    prev = np.zeros(stride, dtype=np.int32)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = np.frombuffer(raw, dtype=np.uint8, count=stride, offset=y * (stride + 1) + 1).astype(np.int32)
        cur = np.zeros(stride, dtype=np.int32)
        for x in range(stride):
            a = cur[x - 3] if x >= 3 else 0
            b = prev[x]
            c = prev[x - 3] if x >= 3 else 0
            if f == 0:
                p = 0
            elif f == 1:
                p = a
            elif f == 2:
                p = b
            elif f == 3:
                p = (a + b) // 2
            else:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                p = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            cur[x] = (line[x] + p) & 0xFF
        out[y] = cur
        prev = cur
    return out.astype(np.uint8).reshape(height, width, 3)
