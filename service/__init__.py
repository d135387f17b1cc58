"""GammonEye service layer (see ../shared/DESIGN.md)."""
