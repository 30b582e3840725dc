"""``python -m perceptron``: the command line (see perceptron.cli)."""
import sys

from perceptron.cli import main

if __name__ == "__main__":
    sys.exit(main())
