"""One ONNX network run on the CPU, by ONNX Runtime or by OpenCV's DNN module.

ONNX Runtime is the default: on this project's models it runs each network in about
two thirds of OpenCV 4's time or less (the detector at 512 x 432 about 34 ms against
54 ms a pass on two cores; ``python bench/read_time.py CLIP --backend opencv`` for the
comparison), with outputs equal to about 1e-4. OpenCV's DNN stays as the second
backend: chosen with ``backend="opencv"`` or the environment variable
``GAMMONEYE_INFERENCE=opencv``, to compare the two or where ONNX Runtime will not
install.

Threads: a network uses as many as OpenCV is set to (``cv2.getNumThreads()`` when it
is loaded), so that the one setting a worker process makes (``cv2.setNumThreads(1)``
beside other workers) holds for both backends.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

F32 = NDArray[np.float32]
BACKENDS = ("onnxruntime", "opencv")
#: The environment variable that picks the backend when none is given.
ENV = "GAMMONEYE_INFERENCE"
__all__ = ["BACKENDS", "ModelError", "OnnxNet", "default_backend"]


class ModelError(RuntimeError):
    """A model file that is missing or cannot be read."""


def default_backend() -> str:
    """The backend named by ``GAMMONEYE_INFERENCE``, else ``onnxruntime``; a name not
    in ``BACKENDS`` is a ValueError (a typo must not silently pick the other one)."""
    name = os.environ.get(ENV, "").strip().lower() or "onnxruntime"
    if name not in BACKENDS:
        raise ValueError(f"{ENV}={name!r}: expected one of {', '.join(BACKENDS)}")
    return name


class OnnxNet:
    """A network with one input and one output used: :meth:`forward` maps an
    (N, C, H, W) float32 array to the first output. Not thread-safe (one per worker)."""

    def __init__(self, path: Path, backend: str | None = None) -> None:
        self.path = Path(path)
        self.backend = backend or default_backend()
        if self.backend not in BACKENDS:
            raise ValueError(f"backend {self.backend!r}: expected one of {', '.join(BACKENDS)}")
        if not self.path.is_file():
            raise ModelError(f"cannot read model {self.path}: no such file")
        self._session: Any = None
        self._net: Any = None
        if self.backend == "onnxruntime":
            self._load_onnxruntime()
        else:
            try:
                self._net = cv2.dnn.readNetFromONNX(str(self.path))
            except cv2.error as exc:
                raise ModelError(f"cannot read model {self.path}: {exc}") from None

    def _load_onnxruntime(self) -> None:
        try:
            import onnxruntime as ort
        except ImportError:
            raise ModelError(
                "onnxruntime is not installed (pip install onnxruntime), or set "
                f"{ENV}=opencv to run the models with OpenCV's DNN"
            ) from None
        options = ort.SessionOptions()
        options.intra_op_num_threads = max(1, cv2.getNumThreads())
        options.inter_op_num_threads = 1
        options.log_severity_level = 3  # errors only
        # no thread of the pool spins waiting for the next run: beside OpenCV's own
        # threads and the other networks' pools it took the cores they needed (a board
        # read 288 ms spinning, against 214 ms with OpenCV's DNN)
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            self._session = ort.InferenceSession(
                str(self.path), options, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime raises its own error types
            raise ModelError(f"cannot read model {self.path}: {exc}") from None
        self._input = self._session.get_inputs()[0].name
        self._output = self._session.get_outputs()[0].name

    def input_hw(self) -> tuple[int, int] | None:
        """The (height, width) the network's input is fixed to, or None where the
        model leaves them free (or onnxruntime, which reads the shape, is missing)."""
        session = self._session
        if session is None:
            try:
                import onnxruntime as ort
            except ImportError:
                return None
            try:
                session = ort.InferenceSession(str(self.path), providers=["CPUExecutionProvider"])
            except Exception:  # onnxruntime raises its own error types
                return None
        shape = session.get_inputs()[0].shape
        if len(shape) == 4 and isinstance(shape[2], int) and isinstance(shape[3], int):
            return int(shape[2]), int(shape[3])
        return None

    def forward(self, x: F32) -> F32:
        """The network's first output for the batch ``x`` (float32, contiguous)."""
        x = np.ascontiguousarray(x, np.float32)
        if self._session is not None:
            out = self._session.run([self._output], {self._input: x})[0]
        else:
            self._net.setInput(x)
            out = self._net.forward()
        return np.asarray(out, np.float32)
