"""Checks of files: ``validate`` (:mod:`.validate`: which kind of file, then the right
checker) and rule cases (:mod:`.rule_cases`: a position, scripted turns, the expected
outcome)."""
