"""The engine: :class:`~.game.Game` (state and driving), the turn's phases (:mod:`.phases`),
what effects change (:mod:`.state_changes`), decisions (:mod:`.decision`), chance
(:mod:`.chance`: dice outcomes and probabilities) and exact expectations computed through
the income step (:mod:`.expectations`)."""
