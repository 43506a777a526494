"""The convolutional rank reader: a second view of a glyph, run by OpenCV's DNN module.

The perceptron of ``vision.glyph_model`` sees a glyph through a fixed histogram
of gradients.  This small network (three 3 x 3 convolutions, one hidden layer,
trained offline by ``benchmarks/train_glyph_cnn.py`` on the same glyphs) learns
its own strokes, so where a degraded low rank leaves the histogram unsure the
two views disagree less often in the same way.  It is shipped as ONNX and run
with ``cv2.dnn``: no runtime dependency beyond OpenCV.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float32]

#: output channels of the three convolutions, and the hidden layer's width
CHANNELS = (16, 32, 64)
HIDDEN = 128


class GlyphCnn:
    """Rank (or suit) logits of glyph squares from ONNX networks (input
    (n, 1, side, side)): the mean of the members' logits, members trained apart.

    The squares are ``vision.glyph_model.square_glyph``'s: the crop centred,
    aspect kept, peak 1, exactly what the networks were trained on.
    """

    def __init__(self, members: bytes | Sequence[bytes], classes: str) -> None:
        self.classes = classes
        self.members: tuple[bytes, ...] = (
            (members,) if isinstance(members, bytes) else tuple(members))
        if not self.members:
            raise ValueError("a glyph network needs at least one member")
        self._nets = [cv2.dnn.readNetFromONNX(np.frombuffer(m, np.uint8))
                      for m in self.members]

    def __getstate__(self) -> dict[str, object]:
        # an OpenCV network cannot be pickled: a worker process rebuilds it
        return {"members": self.members, "classes": self.classes}

    def __setstate__(self, state: dict[str, object]) -> None:
        members, classes = state["members"], state["classes"]
        assert isinstance(members, tuple) and isinstance(classes, str)
        self.__init__(members, classes)  # type: ignore[misc]

    def logits(self, squares: FloatArray) -> FloatArray:
        """One row of logits per square of ``squares`` (n, side, side)."""
        batch = np.ascontiguousarray(squares[:, None], np.float32)
        total: FloatArray | None = None
        for net in self._nets:
            net.setInput(batch)
            out = np.asarray(net.forward(), np.float32).reshape(len(squares), -1)
            total = out if total is None else total + out
        assert total is not None
        if len(self._nets) > 1:
            total /= len(self._nets)
        return total
