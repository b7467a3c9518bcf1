"""`python -m subword_lab ...`: see cli.py."""
import sys

from .cli.main import main

sys.exit(main())
