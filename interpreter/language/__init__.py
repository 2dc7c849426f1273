"""The effect language: the Lark grammar (``effect.lark``), its parser and syntax errors
(:mod:`.parser`), the names an effect may use (:mod:`.vocabulary`), the compiled objects
(:mod:`.conditions`, :mod:`.values`, :mod:`.amounts`, :mod:`.actions`, :mod:`.clauses`)
and the compiler from text to those objects (:mod:`.compiler`).

The compiled objects name no library: a game only runs them, so importing them does not
import Lark.
"""
