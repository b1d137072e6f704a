"""What changed in the rules between two versions, in the game's terms (``wahanorm diff``).

Module map:

- ``sides``: what OLD/NEW name (output folder, raw inputs, ``REV:PATH``) → output files
- ``gitrev``: reading ``REV:PATH`` through ``git ls-tree`` and ``git cat-file --batch``
- ``engine``: output files → ``DiffReport``: match by (kind, id), renames, changes
- ``compare``, ``generic``, ``datasheet``, ``tables``: changes inside one entity
- ``rename``: probable renames by likeness of content
- ``groups``: the faction each entity is listed under
- ``words``, ``values``: word-level diffs and value helpers
- ``result``: the diff as pydantic models (the JSON schema)
- ``render_text``, ``render_markdown``: the two human formats

The command itself (its arguments, its printing) is ``cli.diff``.
"""
