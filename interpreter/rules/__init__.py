"""Rule sets: reading a rule-set folder (:mod:`.folders`) and variant files
(:mod:`.variants`), checking names (:mod:`.references`) and effects (:mod:`.card_effects`),
building the immutable :class:`~.ruleset.RuleSet` (:mod:`.build`, :mod:`.tables`), and the
entry point :func:`~.loader.load_ruleset`.

May import the layers below it: the effect language, data, errors and records. The engines
and the packages above them import it.
"""
