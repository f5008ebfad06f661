import sys
from pathlib import Path

# make tests/helpers.py importable as `helpers` from every test sub-folder
sys.path.insert(0, str(Path(__file__).resolve().parent))
