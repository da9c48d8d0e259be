"""``python -m scorekeeper``: the same commands as the ``scorekeeper`` script."""

from scorekeeper.cli import main

if __name__ == "__main__":
    main()
