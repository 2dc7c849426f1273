"""The house-rule lab: the games of a run (:mod:`.runs`) and who sits where in each
(:mod:`.seats`), where they are played (:mod:`.executors`), streaming statistics
(:mod:`.summary`, :mod:`.statistics`), simulating one rule set (:mod:`.simulation`),
comparing rule sets on paired games (:mod:`.comparison`), tournaments of strategies
(:mod:`.tournament`), exact card analysis (:mod:`.card_analysis`, :mod:`.analysis_text`)
and plots (:mod:`.plots`); also which engine plays a run (:mod:`.engines`), the balance
report (:mod:`.balance` and its parts), the advisor (:mod:`.advise`) and self-play
training (:mod:`.training`).

May import the layers below it: agents, the batched engine, the engine, rules, language,
data, errors and records; not its siblings the checks and the logs. The adapters, the
language server, the MCP server, the web app and the command line import it.
"""
