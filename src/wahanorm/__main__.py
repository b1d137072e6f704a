"""``python -m wahanorm``."""

from wahanorm.cli import command

command()
