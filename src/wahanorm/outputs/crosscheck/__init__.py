"""Where two sources (or more) disagree, entity by entity and field by field (``wahanorm crosscheck``).

Two outputs (or raw inputs converted on the fly, taken as ``diff`` takes its sides:
``outputs.diff.sides``) of the same rules from different sources (a Wahapedia export, BSData
catalogues) are matched entity by entity and compared field by field, in the game's terms,
leaving out what is only a difference of form. Module map:

- ``labels``: a short name for each side, from its data (data version, where it was read)
- ``form``: what each source has at all (fields both have are compared), and the differences
  of form that carry no rule (letter case of keywords, quotes, a single profile's name), each
  normalisation listed once in ``form.NORMALISATIONS``
- ``match``: entities paired by (edition, kind, id), then by name where the two name a
  faction or a unit differently
- ``engine``: two snapshots → ``CrosscheckReport``, the comparing itself done by the diff's
  comparers (``outputs.diff.compare``)
- ``many``: three sides or more: every pair of sides by ``engine``, joined entity by entity,
  the sides grouped by the value they hold and the majority named
- ``result``: the crosscheck as pydantic models (the JSON schema)
- ``render_text``, ``render_markdown``: the two human formats; ``render_many`` both for three
  sides or more

The command itself (its arguments, its printing) is ``cli.crosscheck``.
"""
