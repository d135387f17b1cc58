"""GammonEye vision layer (see ../shared/DESIGN.md)."""
