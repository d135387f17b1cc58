"""GammonEye datasets layer (see ../shared/DESIGN.md)."""
