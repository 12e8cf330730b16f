"""What every benchmark prints first: the machine it ran on."""

from __future__ import annotations

import os
import platform
from pathlib import Path


def machine() -> str:
    """CPU model and cores, Python, and the kernel: "AMD EPYC, 2 cores, Python 3.11.7 …"."""
    model = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{model}, {os.cpu_count()} cores, Python {platform.python_version()} "
        f"({platform.python_implementation()}), {platform.system()} {platform.release()}"
    )
