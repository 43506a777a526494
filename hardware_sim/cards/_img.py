"""Image type aliases, and narrowing of OpenCV's loosely typed results to them."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]
Gray32 = NDArray[np.float32]


def u8(a: Any) -> Image:
    """``a`` as a uint8 array (no copy when it already is one, as OpenCV's results are)."""
    return np.asarray(a, dtype=np.uint8)


def f32(a: Any) -> Gray32:
    """``a`` as a float32 array (no copy when it already is one)."""
    return np.asarray(a, dtype=np.float32)
