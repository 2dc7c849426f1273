"""The engine: :class:`~.game.Game` (state and driving), the turn's phases (:mod:`.phases`),
what effects change (:mod:`.state_changes`), decisions (:mod:`.decision`), chance
(:mod:`.chance`: dice outcomes and probabilities) and exact expectations computed through
the income step (:mod:`.expectations`), greedy's look-ahead over payout tables
(:mod:`.payouts`, :mod:`.lookahead`), a card's face for a person (:mod:`.card_faces`) and
why an event happened (:mod:`.explanations`).

May import the layers below it: rules, language, data, errors and records. The batched
engine, agents and the packages above them import it. It names no card.
"""
