"""``python -m wahanorm``."""

from wahanorm.cli import main

raise SystemExit(main())
