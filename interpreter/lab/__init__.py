"""The house-rule lab: the games of a run (:mod:`.runs`) and who sits where in each
(:mod:`.seats`), where they are played (:mod:`.executors`), streaming statistics
(:mod:`.summary`, :mod:`.statistics`), simulating one rule set (:mod:`.simulation`),
comparing rule sets on paired games (:mod:`.comparison`), tournaments of strategies
(:mod:`.tournament`), exact card analysis (:mod:`.card_analysis`, :mod:`.analysis_text`)
and plots (:mod:`.plots`)."""
