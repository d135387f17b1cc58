"""Settings of the GammonEye service (``gammoneye serve``, ``gammoneye demo``).

Read from the environment (prefix ``GAMMONEYE_``; nested fields with ``__``), a
``.env`` file if one is given, or built in code::

    ServiceSettings(tables=[TableSettings(id="main", source="0", match_length=7)])

``GAMMONEYE_TABLES='[{"id": "main", "source": "rtsp://cam/stream"}]'`` sets the tables
from the environment; ``GAMMONEYE_TOKEN`` the observers' token.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

PROFILES = ("wbf", "konstanz", "club")


class MatchSettings(BaseModel):
    """Who plays, to how many points, under which rules: a match's set-up."""

    players: tuple[str, str] = ("player 0", "player 1")
    match_length: int = Field(0, ge=0, le=64, description="points to win; 0: a money game")
    profile: Literal["wbf", "konstanz", "club"] = "wbf"
    bottom_player: int = Field(
        0, ge=0, le=1, description="the player seated at the field's bottom side in the picture"
    )

    @field_validator("players")
    @classmethod
    def _names(cls, value: tuple[str, str]) -> tuple[str, str]:
        names = tuple(v.strip() for v in value)
        if not all(names) or any(len(n) > 60 for n in names):
            raise ValueError("players need names of 1 to 60 characters")
        return (names[0], names[1])


class TableSettings(BaseModel):
    """One board watched by one camera."""

    id: str = Field("main", pattern=r"^[A-Za-z0-9_-]{1,32}$")
    source: str = Field(
        description="a camera index (0, 1...), a video file, a folder of frames, a rendered "
        "clip's folder or a stream URL (rtsp://, http://)"
    )
    eyes: Literal["camera", "truth"] = Field(
        "camera",
        description="camera: read the pictures; truth: a rendered clip's own labels stand in "
        "for the camera (the referee and pages without vision's errors)",
    )
    calibration: Path | None = Field(None, description="a calibration file; else found")
    fps: float | None = Field(None, gt=0, description="frame rate of a folder of frames")
    match: MatchSettings = MatchSettings()
    out: Path | None = Field(None, description="folder of this table's matches")
    resume: bool = Field(
        True,
        description="go on with the newest unfinished match set up the same way (after a "
        "restart); false: always a new match",
    )
    speed: float = Field(
        1.0, gt=0, le=100, description="a recording plays this many times faster than real time"
    )


class ServiceSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="GAMMONEYE_", env_nested_delimiter="__")

    host: str = "127.0.0.1"
    port: int = Field(8000, ge=0, le=65535)
    token: str = Field(
        default_factory=lambda: secrets.token_urlsafe(12),
        description="observers' actions need it (Authorization: Bearer TOKEN)",
    )
    data_dir: Path = Field(Path("gammoneye-data"), description="where tables keep their matches")
    tables: list[TableSettings] = []
    stall_s: float = Field(3.0, gt=0, description="no frame for this long: the source stalled")
    reconnect_s: float = Field(
        10.0, gt=0, description="a live source silent this long is opened again"
    )
    retry_s: float = Field(1.0, gt=0, description="first wait before reopening a lost source")
    jpeg_quality: int = Field(80, ge=10, le=100)
    video_fps: float = Field(10.0, gt=0, le=60, description="frame rate of the MJPEG stream")
    start_tables: bool = Field(True, description="start the tables' threads with the app")

    def table_out(self, table: TableSettings) -> Path:
        return table.out if table.out is not None else self.data_dir / table.id
