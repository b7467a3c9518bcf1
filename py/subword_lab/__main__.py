"""`python -m subword_lab ...`: see cli.py."""
import sys

from .cli import main

sys.exit(main())
