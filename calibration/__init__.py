"""GammonEye calibration layer (see ../shared/DESIGN.md)."""
