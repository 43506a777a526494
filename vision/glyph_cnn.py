"""The convolutional rank reader: a second view of a glyph, run by OpenCV's DNN module.

The perceptron of ``vision.glyph_model`` sees a glyph through a fixed histogram
of gradients.  This small network (three 3 x 3 convolutions, one hidden layer,
trained offline by ``benchmarks/train_glyph_cnn.py`` on the same glyphs) learns
its own strokes, so where a degraded low rank leaves the histogram unsure the
two views disagree less often in the same way.  It is shipped as ONNX and run
with ``cv2.dnn``: no runtime dependency beyond OpenCV.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float32]

#: output channels of the three convolutions, and the hidden layer's width
CHANNELS = (16, 32, 64)
HIDDEN = 128


class GlyphCnn:
    """Rank logits of glyph squares from an ONNX network (input (n, 1, side, side)).

    The squares are ``vision.glyph_model.square_glyph``'s: the crop centred,
    aspect kept, peak 1, exactly what the network was trained on.
    """

    def __init__(self, onnx: bytes, classes: str) -> None:
        self.classes = classes
        self.onnx = onnx
        self._net = cv2.dnn.readNetFromONNX(np.frombuffer(onnx, np.uint8))

    def __getstate__(self) -> dict[str, object]:
        # an OpenCV network cannot be pickled: a worker process rebuilds it
        return {"onnx": self.onnx, "classes": self.classes}

    def __setstate__(self, state: dict[str, object]) -> None:
        onnx, classes = state["onnx"], state["classes"]
        assert isinstance(onnx, bytes) and isinstance(classes, str)
        self.__init__(onnx, classes)  # type: ignore[misc]

    def logits(self, squares: FloatArray) -> FloatArray:
        """One row of logits per square of ``squares`` (n, side, side)."""
        self._net.setInput(np.ascontiguousarray(squares[:, None], np.float32))
        out: FloatArray = np.asarray(self._net.forward(), np.float32).reshape(len(squares), -1)
        return out
