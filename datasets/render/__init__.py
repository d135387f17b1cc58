"""The synthetic scene renderer: labelled stills and match clips (docs/renderer.md)."""
