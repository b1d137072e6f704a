"""A reader of BattleScribe data (BSData catalogues): the game system (``.gst``) and catalogues
(``.cat``) of a data set, in XML or in their JSON form, as entities of the contract.

``reader`` is the light entry the registry holds (``recognise``: telling a file by its first
bytes); ``read.read_catalogues`` reads the files of one data set together (links resolve across
them) into one ``Reading``. The package knows the contract and the shared building blocks
(``parse/``, the clean spelling), never the pipeline or the outputs. Module map:

- ``nodes``: one file as a tree of ``Node`` (XML and JSON alike), with line ranges;
- ``dataset``: the files together: ids, links, what the default roster shows;
- ``catalogue``: which entries are units, detachments and enhancements, and the factions;
- ``walk``: a unit's tree through its links; ``profiles``, ``abilities``, ``costs``: its
  profiles and weapons, abilities, composition and cost table; ``datasheets``: the datasheet;
- ``leaders``: the Leader texts and Attached Unit abilities as links between the datasheets;
- ``rules``: rules, detachments, detachment rules and enhancements;
- ``text``: BSData's markup as plain text; ``read``: loading the files, the edition signs.
"""
