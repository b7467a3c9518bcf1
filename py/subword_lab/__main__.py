"""`python -m subword_lab ...`: see cli/main.py."""
import sys

try:
    from .cli.main import main
except KeyboardInterrupt:  # Ctrl-C while still starting up: no traceback
    sys.exit(130)

sys.exit(main())
