"""The catalogue of diagnostic codes: one code per problem whatever the reader, each with one
severity and a sentence saying what it means and what to do (``wahanorm explain CODE``; the
manual's diagnostics page is made from it).

Severities, one rule for all codes:
  error    something the source holds is lost: an input, an entry, or a part of one (a weapon, a
           stratagem's sections) could not be read or is left out. ``convert`` exits 1.
  warning  the output may be wrong or incomplete because of the source (a hole, a conflict, an
           unusable value) or because wahanorm guessed or kept something in a lesser form.
  info     a normal step of reading (a repetition dropped, site chrome removed, something the
           contract has no field for); nothing to do unless the output surprises you.

``RENAMES`` maps the codes of wahanorm before this catalogue to the codes that replaced them,
for those reading an older ``index.json``. ``Report`` refuses a code the catalogue lacks or a
severity other than the catalogue's, and ``tests/test_codes.py`` finds every code the program
can emit in its source.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning", "info"]
Area = Literal[
    "input",  # input files: found, read, decoded
    "layout",  # layout & parsing: which reader, cleaning, text not understood, entries not built
    "datasheet",  # datasheet data: profiles, weapons, keywords, costs, links to other entries
    "rules",  # rules text: stratagems, rules, tables inside rules, timing
    "edition",  # editions
    "merge",  # merge and conflicts between sources
    "export",  # the CSV export's tables
    "output",  # the output folder and the command line
    "cache",  # the run cache
]

AREAS: dict[str, str] = {
    "input": "Input files",
    "layout": "Layout and parsing",
    "datasheet": "Datasheet data",
    "rules": "Rules text",
    "edition": "Editions",
    "merge": "Merge and conflicts",
    "export": "Export tables",
    "output": "Output folder and command line",
    "cache": "Cache",
}


@dataclass(frozen=True)
class Code:
    """One diagnostic code: its severity, its area, what it means and what to do."""

    code: str
    severity: Severity
    area: Area
    meaning: str
    action: str

    def sentence(self) -> str:
        """The manual's line: ``code (severity): meaning. Action.``"""
        return f"{self.code} ({self.severity}): {self.meaning} {self.action}"


def _c(code: str, severity: Severity, area: Area, meaning: str, action: str) -> Code:
    return Code(code, severity, area, meaning, action)


# fmt: off
_ALL: list[Code] = [
    # ---- input files ---------------------------------------------------------------------------
    _c("missing-input", "error", "input",
       "An input named on the command line does not exist.",
       "Check the path; nothing was read from it."),
    _c("skipped-input", "warning", "input",
       "A file found in an input folder is not of a format wahanorm reads (a .txt dump, an .html "
       "page, an export folder, BSData's .cat/.gst/.catz/.gstz or catalogue .json), or is not a "
       "regular file; it was skipped.",
       "Nothing to do if it is not rules data (a README); otherwise save it as text or HTML."),
    _c("input-error", "error", "input",
       "An input cannot be read at all: unreadable, over the 64 MiB limit, binary (NUL bytes) or "
       "broken UTF-16; nothing was read from it.",
       "Check that the file is a rules text, a saved page or an export, and that it can be read."),
    _c("encoding", "warning", "input",
       "An input is not UTF-8; the lines that are not were read as CP-1252.",
       "Check the characters on the line named; re-save the file as UTF-8 to be sure."),
    _c("encoding-lost", "error", "input",
       "A table of the export is not UTF-8; the bytes that could not be decoded were replaced, so "
       "characters of the text are lost.",
       "Re-save the table as UTF-8 (or download the export again) and convert again."),
    _c("diagnostics-capped", "warning", "input",
       "One file said the same problem more than 1,000 times (one code); the first 1,000 are "
       "listed, the rest only counted here. A message or excerpt longer than 2,000 characters "
       "is cut, with the count of what was left out.",
       "Fix the problem the first ones name (the file repeats it) and convert again."),
    _c("path-not-utf8", "warning", "input",
       "A file's name is not UTF-8; it is named in the output with those bytes escaped (\\xNN).",
       "Rename the file to keep its name."),
    _c("empty-input", "error", "input",
       "An input holds no text once cleaned (for a textContent dump: its DATASHEET part is "
       "empty); nothing was read from it.",
       "Check that the file was saved whole."),
    _c("unknown-format", "error", "input",
       "No reader recognises the input by its content; nothing was read from it.",
       "Check that it is a text dump, a saved page, an export folder or BSData catalogues."),
    _c("malformed-file", "error", "input",
       "A structured input (an XML or JSON catalogue, a zipped one) is not well-formed, or holds "
       "what no BattleScribe file holds (a DTD declaring entities, an unknown encoding, nesting "
       "deeper than 100 elements, an archive of more than one file or over the size limit); "
       "nothing of that file is read (the other files of its set are).",
       "Check the file at the line and column named; download it again."),
    _c("missing-import", "warning", "input",
       "A file of a data set imports another (a BSData catalogue its library or game system) "
       "that is not among the files given; what is reached only through it is missing.",
       "Give the whole folder of the data set, or name the imported file too."),
    _c("duplicate-file", "warning", "input",
       "Two files of a data set carry the same id; links resolve to the first.",
       "Remove the older copy from the folder."),
    _c("internal-error", "error", "input",
       "wahanorm failed on this input by a fault of its own; the other inputs were converted.",
       "Report it with the input and the place named in the message."),
    # ---- layout and parsing -------------------------------------------------------------------
    _c("unknown-layout", "error", "layout",
       "No datasheet, stratagem or rules entry was found in the input: its layout is not one "
       "wahanorm reads.",
       "Check that it is a Wahapedia page dump, a saved page or an export; see the README's "
       "layouts."),
    _c("index-pdf-unsupported", "error", "layout",
       "The input is the plain text of a GW index PDF: the layout is recognised but not read yet.",
       "Use the Wahapedia page or export of the same units instead."),
    _c("generic-html", "info", "layout",
       "An HTML input is not a Wahapedia datasheet or faction page; it was read as flattened text.",
       "Nothing to do if that is what it is; otherwise save the page whole from the site."),
    _c("textcontent-layout", "info", "layout",
       "The input is a textContent dump (table cells run together); it was cut into cells by the "
       "shapes of the cells.",
       "Nothing to do; the codes textcontent-uncut and unparsed say where the cutting failed."),
    _c("faction-page", "info", "layout",
       "A saved page is a faction's overview page, not a datasheet page; its army rules, "
       "detachments, enhancements and stratagems were read.",
       "Nothing to do."),
    _c("html-profile-shape", "info", "layout",
       "A saved page prints its profiles without the usual profile rows; they were read from "
       "their characteristic boxes.",
       "Check the datasheet's profiles in the output."),
    _c("chrome-removed", "info", "layout",
       "The site's navigation, menus or an empty table row left by the page layout was removed "
       "from the text.",
       "Nothing to do."),
    _c("glued-split", "info", "layout",
       "A line that held several lines of the page glued together was split.",
       "Nothing to do; check the entry if its text looks cut in the wrong place."),
    _c("duplicate-dropped", "info", "layout",
       "Something printed twice was kept once: a repeated line, heading or section, an entry "
       "printed again, a tooltip repeating an entity, a cost line repeated in its table.",
       "Nothing to do."),
    _c("mojibake-repaired", "warning", "layout",
       "Text that had been decoded with the wrong encoding (Ã© for é) was repaired.",
       "Check the repaired text; re-save the source as UTF-8 to avoid it."),
    _c("section-skipped", "info", "layout",
       "A part of the page that holds no rules entries (the keyword-usage list, a faction page's "
       "other sections) was not read, on purpose.",
       "Nothing to do."),
    _c("page-cut", "error", "layout",
       "A saved page cannot be read whole: its elements are nested more than 512 levels deep, or "
       "the HTML parser stopped at one of its limits at the line named. Nothing of the page was "
       "read, so no part of a datasheet is written.",
       "Save the page again from the site; a real page nests some 20 levels deep."),
    _c("html-tooltip-skipped", "info", "layout",
       "A tooltip of a saved page has a shape wahanorm does not know; it was not read.",
       "Nothing to do unless an entry is missing from the output; then report the page."),
    _c("unread-boxes", "warning", "layout",
       "A datasheet frame of an 11th-edition page holds boxes that the 10th-edition pages do not "
       "print (their classes are named); what wahanorm knows of the frame is read, those boxes "
       "are not in the output.",
       "Check the datasheet against the page; report the page so that its boxes can be read."),
    _c("unparsed", "warning", "layout",
       "A line of an entry (or outside any entry) was not understood and is not in the output.",
       "Check the line named; if it holds rules data, report the layout."),
    _c("textcontent-uncut", "warning", "layout",
       "Part of a textContent dump (a weapon table, a cost list, the stratagem index) could not "
       "be cut into cells; it was kept as one line, and what follows from it is reported apart.",
       "Check the entry at that line; a page dump in another layout reads better."),
    _c("parse-error", "error", "layout",
       "A block of text does not follow its grammar where no finer code applies; what it held "
       "is not in the output.",
       "Check the line and column named (the caret shows where); report it if the text looks "
       "right."),
    _c("implausible-entity", "error", "layout",
       "An entry was read but no source holds such a thing (a name the length of a sentence, a "
       "datasheet with neither profile nor weapon): the layout was not understood there, so it "
       "is not kept.",
       "Check the text at that line; report the layout if it is a real entry."),
    _c("missing-field", "error", "layout",
       "An entry lacks its name or another part it cannot be kept without (a datasheet's "
       "faction, a detachment rule's detachment, a stratagem's type); it is left out.",
       "Fill in the missing part in the source, or report it to the source."),
    _c("no-faction", "error", "layout",
       "The input names no faction (page header, keyword list or FACTION KEYWORDS), so no "
       "datasheet id can be built; nothing was read from it.",
       "Save the page whole, with its header."),
    _c("faction-guessed", "warning", "layout",
       "The page's own faction name is not in the text (cut short?); the faction was read from "
       "FACTION KEYWORDS, so ids may differ from the page's.",
       "Check the datasheet's id; save the page whole to be sure."),
    # ---- datasheet data ------------------------------------------------------------------------
    _c("profile-missing", "warning", "datasheet",
       "A datasheet has no model profile.",
       "Check the source; the profile rows were probably lost when the page was saved."),
    _c("characteristic-missing", "warning", "datasheet",
       "A model profile or a weapon shows no value for some characteristics (or none at all); "
       "they are left empty.",
       "Check the characteristics named in the source."),
    _c("unknown-characteristic", "warning", "datasheet",
       "A profile shows a characteristic wahanorm does not know; it is not in the output.",
       "Report the characteristic's name."),
    _c("profile-name", "warning", "datasheet",
       "A datasheet has several profiles and one has no name, or the same name as another; it "
       "is named after the unit.",
       "Check the profiles' names in the source."),
    _c("keyword-scope", "warning", "datasheet",
       "Keywords are given for a model that no profile of the datasheet is named after; they are "
       "kept on the unit.",
       "Check the model's name in the source."),
    _c("keywords-unlabelled", "warning", "datasheet",
       "A keyword box of a saved page has no label (KEYWORDS, FACTION KEYWORDS); its words are "
       "not in the output.",
       "Check the datasheet's keywords in the source."),
    _c("weapon-table-empty", "warning", "datasheet",
       "A ranged or melee weapon table has no weapon rows.",
       "Check the source; the rows were probably lost when the page was saved."),
    _c("weapon-row", "error", "datasheet",
       "A row of a weapon table could not be read (not a name and six characteristics, or "
       "conditional abilities with no weapon after them); that weapon is not in the output.",
       "Check the row named; report it if it looks right."),
    _c("weapon-abilities", "error", "datasheet",
       "A weapon's ability list (its [KEYWORDS]) does not follow the grammar; the abilities are "
       "left out.",
       "Check the list at the column named; report it if it looks right."),
    _c("weapon-kind", "warning", "datasheet",
       "A weapon of a saved page has no table heading saying ranged or melee; its range column "
       "decided.",
       "Check the weapon's type in the output."),
    _c("bad-weapon", "error", "datasheet",
       "A wargear row of the export has a type that is neither Ranged nor Melee; the weapon is "
       "left out.",
       "Check the row's type in Datasheets_wargear.csv."),
    _c("unknown-weapon-ability", "info", "datasheet",
       "A weapon ability is none the grammar knows; it is kept whole, as printed (said once per "
       "name and input).",
       "Nothing to do if it is a new ability; report it so that it is read with its parameter."),
    _c("core-abilities", "warning", "datasheet",
       "A datasheet's CORE abilities list does not follow the grammar; each item is kept whole "
       "as an ability name, without its parameter.",
       "Check the list in the source; report it if it looks right."),
    _c("hyphen-profile", "info", "datasheet",
       "A weapon's profile is separated from its name by a hyphen, not a dash; read as name and "
       "profile.",
       "Nothing to do."),
    _c("starred-stat", "info", "datasheet",
       "A characteristic is starred (it has a condition) and the source gives no condition; it "
       "is kept as printed.",
       "Nothing to do; the datasheet's abilities usually say when it applies."),
    _c("ability-name", "warning", "datasheet",
       "An ability of a saved page has no bold name; its name was taken from the text before "
       "the first colon.",
       "Check the ability's name in the output."),
    _c("ability-group", "info", "datasheet",
       "A rules box or ability group the reader has no field for (SUPREME COMMANDER, an unknown "
       "ability type) is kept as a datasheet ability named after its heading.",
       "Nothing to do."),
    _c("cost-missing", "warning", "datasheet",
       "A unit has no cost in points in the source; its cost table is empty.",
       "Check the unit in the source."),
    _c("unplaced-entry", "warning", "datasheet",
       "An entry cannot be placed: the faction or detachment it belongs to is in none of the "
       "files given (a library catalogue's enhancements of another faction); it is left out.",
       "Give the data set whole (the catalogue that holds that faction or detachment)."),
    _c("hidden-entry", "info", "datasheet",
       "An entry the source hides from every use (a BSData detachment no roster offers) is "
       "left out, with what belongs to it.",
       "Nothing to do."),
    _c("unoffered-entry", "warning", "datasheet",
       "A BSData selection entry carries a model profile (a Unit profile) but no catalogue "
       "offers it as a unit and no unit holds it as one of its models (an upgrade that is a "
       "model, an entry nothing links); it gives no datasheet.",
       "Check the entry in the catalogue: if it is a unit, it is offered nowhere."),
    _c("faction-name", "info", "datasheet",
       "A faction is named after the catalogue that holds its units (Space Marines), as the "
       "other source names it, where its faction keyword says otherwise (Adeptus Astartes); the "
       "keyword stays its faction keyword.",
       "Nothing to do; the ids then agree with the other source."),
    _c("bad-cost", "warning", "datasheet",
       "A cost line or an enhancement's cost is not a number of points; it is left out.",
       "Check the cost in the source."),
    _c("out-of-range", "warning", "datasheet",
       "A cost, a count or a characteristic is a number no game value can be (beyond a million "
       "either way, infinite, or nan); it is left out (a characteristic keeps its printed text "
       "without a typed value) and the rest of the entry is read.",
       "Check the value at the line named: the source is damaged or was altered."),
    _c("link-loop", "warning", "datasheet",
       "A link of a BattleScribe file leads back to an element it came from, or a chain of links "
       "is longer than any real data set's (64); it is not followed further, and what lies "
       "beyond it is left out of the entry.",
       "Check the link at the line named; the rest of the data set is read."),
    _c("cost-models", "info", "datasheet",
       "A cost line does not say for certain how many models it costs; its number of models is "
       "left empty.",
       "Nothing to do; the line's text is kept."),
    _c("cost-conflict", "warning", "datasheet",
       "One cost table gives two costs for the same models and units; both lines are kept.",
       "Check the costs in the source; one is probably stale."),
    _c("upgrade-cost", "info", "datasheet",
       "A cost is written as an addition (+10); it is read as that many points.",
       "Nothing to do."),
    _c("leader-empty", "warning", "datasheet",
       "A LEADER or LED BY section lists no units: the list was lost when the page was saved.",
       "Check the source; the output has no leader links for this datasheet."),
    _c("missing-entry", "warning", "datasheet",
       "A datasheet lists a stratagem, detachment rule, enhancement or unit it leads whose text "
       "is not in this input (on a saved page: whose tooltip is missing or unreadable).",
       "Nothing to do if another input holds it (the export, the faction page); otherwise add "
       "that page."),
    _c("partial-entry", "info", "datasheet",
       "An enhancement is listed with its cost only; its detachment and text are not in this "
       "input, so it is filed under the faction.",
       "Add the faction page or the export to have it whole."),
    _c("stratagem-ref", "warning", "datasheet",
       "An entry of a saved page's STRATAGEMS section has neither a tooltip nor a name and type; "
       "it is not linked.",
       "Check the datasheet's stratagems in the output."),
    _c("dangling-link", "warning", "datasheet",
       "A row of the export, or an entry of a BSData catalogue, links an id its data set does not "
       "hold (an ability, stratagem, enhancement, leader, shared entry or profile); the link is "
       "left out.",
       "Nothing to do for a sample; otherwise download the export again, or give every "
       "catalogue of the BSData set."),
    _c("orphan-rows", "warning", "datasheet",
       "Rows of a table hang off a datasheet that Datasheets.csv does not hold as a unit; they "
       "are left out.",
       "Nothing to do for a sample export; otherwise check Datasheets.csv."),
    _c("empty-row", "info", "datasheet",
       "A wargear row has neither name nor type (a placeholder of the export); it is skipped.",
       "Nothing to do."),
    _c("virtual-datasheet", "info", "datasheet",
       "A datasheet is marked virtual (not a unit of its own); it is left out.",
       "Nothing to do."),
    _c("weapons-missing", "info", "datasheet",
       "A datasheet has model profiles and no weapon (fortifications, drop pods and the like have "
       "none).",
       "Nothing to do unless the unit has weapons in the source."),
    _c("many-without-weapons", "warning", "datasheet",
       "More than a tenth of an input's datasheets have no weapon: the weapons were not read "
       "(is the export's Datasheets_wargear.csv whole?).",
       "Check the weapon table of the input; download the export again if it was cut."),
    _c("distinct-datasheets", "info", "datasheet",
       "Two datasheets of one faction share a name but each has its own link and source book "
       "(an export), or each is an entry of its own (BSData); they are two units, and the second "
       "gets its book (its catalogue, or its tag) in its id.",
       "Nothing to do; use the id shown to name the second one."),
    _c("ability-rows", "info", "datasheet",
       "Rows of Stratagems.csv typed '… Ability' are rules, not stratagems; they are read as "
       "rules.",
       "Nothing to do."),
    # ---- rules text ----------------------------------------------------------------------------
    _c("hole", "warning", "rules",
       "A keyword or a link is missing from the rules text (the site drops some when a page is "
       "saved: 'is , ', 'The and', a %link% placeholder); the text is kept as printed.",
       "Check the sentence at the column named against the source."),
    _c("empty-text", "warning", "rules",
       "A rule, ability, detachment rule, enhancement or stratagem has a name and no text; it is "
       "kept without text (a dump's rule heading alone is left out).",
       "Check the source; the text was probably lost when it was saved."),
    _c("table-missing", "warning", "rules",
       "A rule announces or holds a table whose rows are not in the text.",
       "Check the rule in the source; the output's rule has no table."),
    _c("table-partial", "warning", "rules",
       "Cells of a table in a rule lost their values (a die printed as an image); the table is "
       "kept as printed.",
       "Check the table in the source."),
    _c("stratagem-body", "error", "rules",
       "A stratagem's text does not follow the grammar of WHEN / TARGET / EFFECT / RESTRICTIONS; "
       "its whole text is kept as its effect (a text dump's stratagem is left out).",
       "Check the stratagem's labels at the line named; report it if they look right."),
    _c("stratagem-unlabelled", "warning", "rules",
       "A stratagem has none of its WHEN, TARGET and EFFECT sections (an older one printed as "
       "one paragraph, or its text was cut off); its text, if any, is kept (as its effect; in a "
       "text dump, as its flavour).",
       "Check the stratagem in the source."),
    _c("source-disagrees", "warning", "rules",
       "A stratagem card's type names another source than the detachment whose section of the "
       "page prints it; the detachment of the section is kept as its source.",
       "Check the card's type and section in the source."),
    _c("card-kind", "warning", "rules",
       "A move or action card of an 11th-edition page has a background that tells no kind "
       "wahanorm knows (a move, a shooting type); the rule is kept without its category.",
       "Check the rule's category; report the page so that the kind can be read."),
    _c("trigger-as-when", "info", "rules",
       "A stratagem has TRIGGER where WHEN would be; it is kept as its when.",
       "Nothing to do."),
    _c("no-cp", "info", "rules",
       "A stratagem has no CP cost that is a number; its cp is left empty.",
       "Nothing to do if it costs nothing; otherwise check the source."),
    _c("timing-disagrees", "warning", "rules",
       "A stratagem's WHEN says another turn or phase than the export's turn/phase columns; the "
       "message says which side is likelier wrong.",
       "Check the stratagem's WHEN against the columns."),
    _c("timing-agreement", "info", "rules",
       "How many of the export's stratagems have a timing, derived from WHEN, that agrees with "
       "its turn/phase columns.",
       "Nothing to do; timing-disagrees lists the others."),
    _c("broken-caps", "info", "rules",
       "A keyword is printed in mixed case in the rules text (ChARACTER); it is read in capitals.",
       "Nothing to do."),
    _c("escaped-markup", "warning", "rules",
       "A field holds HTML escaped twice (&amp;lt;b&amp;gt;); it is read as text.",
       "Check the field's text in the output."),
    # ---- editions ------------------------------------------------------------------------------
    _c("edition-guessed", "warning", "edition",
       "The input does not tell its edition; it is read as 10th edition.",
       "Say it with --edition 10 or --edition 11."),
    _c("edition-disagrees", "warning", "edition",
       "--edition says one edition and the input tells another; the input's own is used.",
       "Drop --edition for this input, or check that it is the input you meant."),
    _c("edition-inconsistent", "warning", "edition",
       "The export's links tell one edition and its Source.csv's newest book another; the links' "
       "edition is used.",
       "Check the export's Source.csv; say the edition with --edition if the links are wrong."),
    _c("edition-link", "warning", "edition",
       "A datasheet lists an entry that the export holds only in the other edition; the link is "
       "kept.",
       "Check the export: the entry of this edition may be missing."),
    # ---- merge and conflicts -------------------------------------------------------------------
    _c("conflict", "warning", "merge",
       "The same entry (edition, kind and id) differs between sources; the version most sources "
       "agree on is the entry, each other version one of its variants.",
       "Compare the sources named; usually one is older. Convert only the newer to be rid of it."),
    _c("id-collision", "error", "merge",
       "Two different names give one id (names that differ only in notation, as case, "
       "brackets, hyphens or accents, are one name); both are kept, the second as a variant.",
       "Rename one in its source."),
    _c("unsafe-characters", "warning", "merge",
       "An entry's name held control or bidirectional characters; they were removed.",
       "Check the name in the source."),
    # ---- export tables -------------------------------------------------------------------------
    _c("not-an-export", "error", "export",
       "A table's header is not a Wahapedia export's (column names each followed by '|'); the "
       "folder is not read.",
       "Check that the folder holds the site's export as downloaded."),
    _c("resaved-export", "warning", "export",
       "Tables of the export were re-saved by a spreadsheet (split at commas, joined with '|'); "
       "this was undone exactly, line by line.",
       "Nothing to do; keep the export as downloaded to avoid it."),
    _c("table-refused", "error", "export",
       "A table of the export was not read: it is over the 64 MiB limit for one input (or grew "
       "past it while read), it would take the export's tables together past that limit, or it "
       "is a symbolic link or not a regular file. The rest of the export is read without it; "
       "the diagnostic says what is left out.",
       "Replace the table with the export's own file (a real file, as downloaded)."),
    _c("missing-table", "warning", "export",
       "The export lacks a table the datasheets are built from; what it would give is empty.",
       "Download the export whole."),
    _c("optional-table-missing", "info", "export",
       "The export lacks an optional table; what it holds is left out.",
       "Nothing to do for a sample export; otherwise download the export whole."),
    _c("table-without-header", "warning", "export",
       "A table of the export has no header line; it is read as empty.",
       "Download the table again."),
    _c("short-record", "warning", "export",
       "A record has fewer fields than the header; the rest are read as empty.",
       "Check the record at the line named."),
    _c("long-record", "warning", "export",
       "A record has more separators than the header; the extra text is kept in its last field.",
       "Check the record at the line named."),
    _c("missing-column", "warning", "export",
       "A table lacks a column wahanorm reads; its values are read as empty.",
       "Check the export's version; report it if the site renamed the column."),
    _c("repeated-column", "warning", "export",
       "A table's header names a column twice; the last of them is read, the others left out.",
       "Check the table's header; download the table again."),
    _c("unknown-column", "info", "export",
       "A table has a column wahanorm does not read; it is left out.",
       "Nothing to do; report it if it holds rules data."),
    _c("unknown-faction", "warning", "export",
       "A faction id is not in Factions.csv; the id is used as the faction's name.",
       "Check Factions.csv."),
    _c("bad-value", "warning", "export",
       "A field holds a value not of its kind (a whole number, true or false); it is left out.",
       "Check the field at the line named."),
    _c("dropped-field", "info", "export",
       "The source holds data the canonical form has no field for (a flavour text or a column of "
       "the export, the roll that selects a weapon profile, a second rule number printed in a "
       "page's heading); it is left out.",
       "Nothing to do."),
    _c("unknown-field", "warning", "input",
       "A structured input (a Game-Datacards file) holds a field wahanorm does not read (a newer "
       "version of its format); it is left out. The message names each field with how often it "
       "was met.",
       "Report it with the file if the field holds rules data."),
    _c("translation-missing", "warning", "input",
       "Names and texts asked for in another language (--language) have no translation in the "
       "file; they are kept in English (one diagnostic per input, with the count).",
       "Nothing to do, or convert in English."),
    _c("orphan-condition", "warning", "export",
       "A profile gives a condition for an invulnerable save it does not have; the condition is "
       "left out.",
       "Check the profile's invulnerable save in Datasheets_models.csv."),
    # ---- output folder and command line --------------------------------------------------------
    _c("unwritable-value", "error", "output",
       "An entry holds a value canonical JSON cannot hold (a whole number beyond 64 bits); the "
       "entry is not written, the others are.",
       "Report it with the entry's source: its reader should have bounded the value."),
    _c("unsafe-path", "error", "output",
       "An entry's file name would not be a safe path inside the output folder; the entry is not "
       "written.",
       "Report it with the entry's source."),
    _c("output-refused", "error", "output",
       "The output folder cannot be written as asked: it is not wahanorm's, is in use, or a path "
       "in it leads elsewhere; nothing was touched.",
       "Choose an empty folder or one wahanorm wrote, or wait for the other run."),
    _c("usage", "error", "output",
       "The command line asks for something impossible.",
       "See wahanorm --help."),
]
# fmt: on

CATALOGUE: dict[str, Code] = {c.code: c for c in _ALL}

RENAMES: dict[str, str] = {
    # input files
    "textcontent-empty": "empty-input",
    "error": "internal-error",  # WahanormError's default code; never raised as such today
    # layout and parsing
    "html-faction-page": "faction-page",
    "table-remnant": "chrome-removed",
    "html-tooltip-repeats": "duplicate-dropped",
    "repeated-cost": "duplicate-dropped",
    "skipped": "section-skipped",
    "html-faction-sections": "section-skipped",
    "html-unread-text": "unparsed",
    "textcontent-cells": "textcontent-uncut",
    "textcontent-costs": "textcontent-uncut",
    "textcontent-index": "textcontent-uncut",
    "html-no-name": "missing-field",
    "html-stratagem": "missing-field",
    "html-enhancement": "missing-field",  # its "names no detachment" site: no-detachment
    "html-detachment-rule": "missing-field",
    "html-no-faction": "no-faction",
    "textcontent-no-faction": "no-faction",
    "textcontent-faction": "faction-guessed",
    # datasheet data
    "weapon-characteristic-missing": "characteristic-missing",
    "html-stat-empty": "characteristic-missing",
    "profile-empty": "characteristic-missing",
    "html-unknown-stat": "unknown-characteristic",
    "html-profile-name": "profile-name",
    "html-keyword-scope": "keyword-scope",
    "html-keywords": "keywords-unlabelled",
    "table-empty": "weapon-table-empty",
    "html-weapon-row": "weapon-row",
    "html-weapon-ability": "weapon-abilities",
    "html-weapon-kind": "weapon-kind",
    "html-ability-name": "ability-name",
    "html-section-as-ability": "ability-group",
    "html-points": "bad-cost",
    "html-leader-empty": "leader-empty",
    "html-missing-tooltip": "missing-entry",
    "html-stratagem-ref": "stratagem-ref",
    # rules text
    "html-faction-rule": "empty-text",
    "html-rule-empty": "empty-text",
    "html-stratagem-body": "stratagem-body",
    "html-stratagem-unlabelled": "stratagem-unlabelled",
    "incomplete-entry": "stratagem-unlabelled",
    "no-cost": "no-cp",
    # export tables
    "empty-table": "table-without-header",
    "bad-number": "bad-value",
    "bad-flag": "bad-value",
    "dropped-column": "dropped-field",
    # output folder
    "output": "output-refused",
}

CATALOGUE["no-detachment"] = _c(
    "no-detachment",
    "warning",
    "rules",
    "An enhancement or stratagem names no detachment (nor, for a stratagem, a type); it is filed "
    "under its faction (a stratagem under the source 'Unknown').",
    "Check the entry in the source; its id may change once the detachment is known.",
)


def resolve(code: str) -> str:
    """The catalogue code of ``code``, old or new (``KeyError`` when it is neither)."""
    new = RENAMES.get(code, code)
    if new not in CATALOGUE:
        raise KeyError(code)
    return new


def explain(code: str) -> str:
    """What ``wahanorm explain CODE`` prints."""
    entry = CATALOGUE[resolve(code)]
    said = entry.sentence()
    if entry.code != code:
        said = f"{code} is now {entry.code}.\n{said}"
    return said


def check() -> list[str]:
    """Problems of the catalogue itself (empty when sound)."""
    problems = []
    for old, new in RENAMES.items():
        if old in CATALOGUE:
            problems.append(f"{old} is both renamed and in the catalogue")
        if new not in CATALOGUE:
            problems.append(f"{old} renamed to {new}, which is not in the catalogue")
    for code, entry in CATALOGUE.items():
        if entry.code != code:
            problems.append(f"{code} holds {entry.code}")
        if not (entry.meaning.endswith(".") and entry.action.endswith(".")):
            problems.append(f"{code}: meaning and action end with a full stop")
    return problems
