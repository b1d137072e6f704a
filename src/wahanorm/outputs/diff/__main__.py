"""``python -m wahanorm.diff OLD NEW``: the subcommand without the main CLI."""

from wahanorm.outputs.diff.command import main

raise SystemExit(main())
