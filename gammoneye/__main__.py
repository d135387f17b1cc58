"""``python -m gammoneye`` runs the command-line interface."""

from gammoneye.service.cli import main

main()
