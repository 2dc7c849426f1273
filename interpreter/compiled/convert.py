"""A scalar position in the compiled engine: :func:`from_game` makes N copies of a
:class:`~machikoro.engine.game.Game`'s position as :class:`~machikoro.compiled.games.
CompiledGames`, each waiting at the game's decision (or starting its turn), for rollouts
from a real game (the advisor's).

A copy never knows the real game's future: each rolls from its own stream (its seed) and
the market decks are shuffled again for each copy (their order is the real game's
future), drawing from the copy's own stream, so the same seeds give the same copies.

The compiled engine keeps the scalar engine's queue of items (card, owner, copies, clause),
so a position in the middle of a step is the scalar queue from the item that asks: that
item walks again and asks again (its conditions read the same state). What is refused with
:class:`~machikoro.errors.CompiledUnsupported`: a queue holding an owner's order decision
of its cards (the scalar engine keeps the group's candidates, the compiled one a block's
bits), a position at a chance step, and any position whose decision, asked again, is not
the scalar game's (the same name, seat and number of options).
"""

from __future__ import annotations

import numpy as np

from ..engine import phases as scalar
from ..engine.game import Game, copy_settings
from ..errors import CompiledUnsupported, MachikoroError
from ..language.clauses import TRIGGERS
from . import tables as tb
from .games import _GOLDEN, CompiledGames, _mix, tables_for

_PHASES = {scalar.BEFORE_ROLL: tb.BEFORE_ROLL, scalar.AFTER_ROLL: tb.AFTER_ROLL,
           scalar.INCOME: tb.INCOME, scalar.AFTER_INCOME: tb.AFTER_INCOME,
           scalar.BEFORE_BUILD: tb.BEFORE_BUILD, scalar.END: tb.END,
           scalar.WHEN_BUILT: tb.WHEN_BUILT}
"""The scalar phases a card's decision is asked in, as the compiled engine numbers them."""


def from_game(game: Game, n: int = 1, seeds=None, max_turns: int | None = -1,
              shuffle_decks: bool = True, log_rolls: bool = False,
              throws: list | None = None) -> CompiledGames:
    """``n`` copies of ``game``'s position (see the module text), each waiting at the
    game's decision or, between two turns, at its next one: ``seeds`` (one whole number
    >= 0 per copy) seed the copies' dice and decks, else they are drawn from the system's
    entropy; ``max_turns`` the copies' turn cap (default: the game's; None: none);
    ``shuffle_decks=False`` keeps the game's decks in their order (a check of the rules,
    not a look-ahead); ``log_rolls`` logs the copies' throws (:meth:`~machikoro.compiled.
    games.CompiledGames.take_rolls`, the lock-step check); ``throws`` (with
    ``log_rolls``), per copy the throws its dice make from the position on
    (:meth:`~machikoro.compiled.games.CompiledGames.script_dice`: a rule case's). Option
    ``k`` of a copy's decision is option ``k`` of the game's.

    Raises :class:`~machikoro.errors.CompiledUnsupported` for a rule set the compiled
    engine cannot play or a position it cannot say, and :class:`~machikoro.errors.
    MachikoroError` for a game stopped at a chance step or in the middle of a step with
    nothing pending (call ``decision()`` first), or ``n`` seeds wanted and not given."""
    seeds, max_turns = copy_settings(game, n, seeds, max_turns)
    tables_for(game.rules, game.n)  # (refuses a rule set first)
    queue = _queue(game)
    copies = CompiledGames(game.rules, game.n, seeds, max_turns=max_turns, start=False,
                           log_rolls=log_rolls)
    if copies.n != n:
        raise MachikoroError(f"from_game: {n} copies but {copies.n} seeds")
    _write(copies, game, queue, shuffle_decks, throws)
    return copies


def write_position(copies: CompiledGames, game: Game, shuffle_decks: bool = True) -> None:
    """:func:`from_game` into ``copies``, games made for ``game``'s rule set, player count
    and turn cap with ``CompiledGames(..., start=False)`` and since then untouched, or
    their arrays set back to those (what a caller asking one position after another
    keeps: :class:`machikoro.agents.compiled_policies.CompiledBuilds`); each copy draws
    from its own seed's stream as there. Raises as :func:`from_game`."""
    _write(copies, game, _queue(game), shuffle_decks)


def _write(copies: CompiledGames, game: Game, queue: list, shuffle: bool,
           throws: list | None = None) -> None:
    from . import kernels as k

    _copy_state(copies, game, shuffle)
    _position(copies, game, queue)
    if throws is not None:
        copies.script_dice(throws)
    copies._run(copies.tables, copies.state, copies._games,
                np.zeros(copies.n, dtype=np.int64), k.STEP)
    _same_decision(copies, game)


def _copy_state(copies: CompiledGames, game: Game, shuffle: bool) -> None:
    """Everything of ``game``'s state but its step and queue, into every copy."""
    from . import kernels as k

    a, t, turn = copies.arrays, copies.tables, game.turn
    a["coins"][:] = game.coins
    a["towns"][:] = game.owned
    a["supply"][:] = game.supply
    if a["marks"].shape[1:] == (t.markers, game.n, t.cards):
        a["marks"][:, :len(game.marks)] = game.marks
    elif any(any(any(row) for row in marker) for marker in game.marks):
        raise CompiledUnsupported("markers on cards in rules whose markers it keeps none of")
    _copy_decks(copies, game, shuffle)
    width = len(game.dice)
    a["dice"][:, :width] = game.dice
    a["rerolled"][:, game.rerolls_used] = turn + 1
    a["built"][:, game.built_this_turn] = turn + 1
    for card, rolled in (game.side_rolls or {}).items():
        a["side"][:, card] = rolled
        a["side_turn"][:, card] = turn + 1
    if game.received is not None:
        a["received"][:] = game.received
    ints = a["ints"]
    for column, value in ((k.CUR, game.current), (k.TURN, turn), (k.NDICE, width),
                          (k.TOTAL, game.total), (k.DICE_COUNT, game.dice_count),
                          (k.EXTRA, game.extra_turn), (k.EXTRAS, game.extra_turns),
                          (k.BUILDS_LEFT, game.builds_left),
                          (k.WINNER, -1 if game.winner is None else game.winner),
                          (k.BOUND, -1 if game.bound is None else game.bound),
                          (k.BUILT_CARD, game.built_this_turn[-1]
                           if game.built_this_turn else 0)):
        ints[:, column] = value
    if game.towns_seen is not game.owned:
        if a["seen"].shape[1:] != (game.n, t.cards):
            raise CompiledUnsupported("a copy of the towns on a total the rule set keeps none")
        a["seen"][:] = game.towns_seen
        ints[:, k.SEEN] = 1
    if game.income_moves is not None:
        moves = game.income_moves
        if len(moves) > a["moves"].shape[1] or (moves and a["moves"].shape[1] == 1):
            raise CompiledUnsupported("an income step's moves the rule set does not follow")
        if moves:
            a["moves"][:, :len(moves)] = moves
        ints[:, k.MOVING] = 1
        ints[:, k.NMOVES] = len(moves)


def _copy_decks(copies: CompiledGames, game: Game, shuffle: bool) -> None:
    """Each market row's deck, the top last, shuffled per copy from its stream (a key per
    card, sorted, as a new game's deal shuffles), after the draws of a new game's deal,
    which each copy makes too: the same seeds give the same copies."""
    a, t = copies.arrays, copies.tables
    keys, counters = a["dice_keys"], a["dice_counters"]
    counters += np.uint64(int(t.row_size[:len(t.row_kinds)].sum()))
    for r, j in copies._dealt.items():
        cards = np.array(game.decks[r] or (), dtype=np.int64)
        if shuffle and len(cards):
            steps = np.arange(len(cards), dtype=np.uint64)
            with np.errstate(over="ignore"):
                drawn = _mix(keys[:, None] + (counters[:, None] + steps) * _GOLDEN)
            counters += np.uint64(len(cards))
            a["decks"][:, j, :len(cards)] = cards[np.argsort(drawn, axis=1)]
        else:
            a["decks"][:, j, :len(cards)] = cards
        a["deck_lo"][:, j] = 0
        a["deck_hi"][:, j] = len(cards)


def _queue(game: Game) -> list:
    """The compiled queue of ``game``'s pending card decision: the asking item, then the
    items after it, as ``(card, owner, copies, clause row, 0)``; empty for a game at its
    build or dice decision or between turns."""
    decision = game.pending
    if game.phase == scalar.OVER:
        return []
    if decision is None:
        if game.phase == scalar.START and not game.queue:
            return []
        raise MachikoroError("the game is in the middle of a step with no decision "
                             "pending: call decision() first")
    if decision.card is None and decision.name in ("build", "dice"):
        return []
    if game.phase not in _PHASES:
        raise CompiledUnsupported(f"a decision in the {scalar.PHASE_NAMES[game.phase]} step")
    rows = _clause_rows(game.rules, tables_for(game.rules, game.n))
    out = []
    for card, owner, copies, clause in [game.pending_item, *game.queue[game.qpos:]]:
        row = rows.get((id(clause), card)) if card >= 0 else None
        if row is None:
            raise CompiledUnsupported("a position at or before an owner's order decision"
                                      if card < 0 else "a queue item of no card's clause")
        out.append((card, owner, copies, row, 0))
    return out


def _clause_rows(rules, t: tb.Tables) -> dict:
    """``{(id(clause), card): row}`` of every activation and hook clause of ``rules``, and
    of every clause each chains to (``rest``), as :func:`~machikoro.compiled.tables.
    encode` numbered them (a card's activation clauses, the hooks in order)."""
    from .kernels import C_REST

    rows: dict = {}

    def chain(clause, card: int, row: int) -> None:
        while clause is not None and row >= 0:
            rows[(id(clause), card)] = row
            clause, row = clause.rest, int(t.clauses[row, C_REST])

    for card, clauses in enumerate(rules.activation):
        for j, clause in enumerate(clauses):
            chain(clause, card, int(t.card_clauses[card, j]))
    for trigger, pairs in enumerate(rules.hooks[name] for name in TRIGGERS):
        for h, (card, clause) in enumerate(pairs):
            chain(clause, card, int(t.hooks[t.hook_start[trigger] + h, 1]))
    return rows


def _position(copies: CompiledGames, game: Game, queue: list) -> None:
    """Where the copies go on from: the turn's start, the dice or the build decision
    asked again, or the queue walked from the asking item."""
    from . import kernels as k

    ints = copies.arrays["ints"]
    ints[:, k.PENDING] = k.NONE
    ints[:, k.ANSWER] = -1
    ints[:, k.ENTERING] = 1
    ints[:, k.QLEN] = ints[:, k.QPOS] = ints[:, k.QINS] = 0
    decision = game.pending
    if game.phase == scalar.OVER:
        ints[:, k.PHASE] = k.OVER
    elif decision is None:
        ints[:, k.PHASE] = k.START
    elif decision.card is None and decision.name == "build":
        ints[:, k.PHASE] = k.BUILD_AGAIN  # (asks with the builds left, as the game does)
    elif decision.card is None and decision.name == "dice":
        ints[:, k.PHASE] = k.DICE
    else:
        if len(queue) > copies.tables.queue_size:
            raise CompiledUnsupported("a queue longer than the compiled engine keeps")
        copies.arrays["queue"][:, :len(queue)] = queue
        ints[:, k.PHASE] = _PHASES[game.phase]
        ints[:, k.ENTERING] = 0
        ints[:, k.QLEN] = len(queue)


def _same_decision(copies: CompiledGames, game: Game) -> None:
    """Refuse (:class:`~machikoro.errors.CompiledUnsupported`) copies whose decision,
    asked again, is not ``game``'s: another name, seat or number of options."""
    decision = game.pending
    if decision is None or not copies.n:
        return
    asked = (copies.decision_name(0), int(copies.pending_player[0]),
             int(copies.option_counts[0]))
    if asked != (decision.name, decision.player, len(decision.options)):
        raise CompiledUnsupported(f"this position (its {decision.name} decision, asked "
                                  f"again, is {asked[0]} with {asked[2]} options)")


def option_rollouts(game: Game, per: int, seed: int, play=None, cut=None) -> tuple:
    """Play ``per`` rollouts of each option of ``game``'s pending decision to the end, one
    batch of copies of the position (:func:`from_game`): copy ``i * per + j`` answers
    option ``i``, then ``play(copies, seat_seeds)`` plays them on (``seat_seeds`` the
    ``(N, P)`` seeds of the seats' agents; default: random agents in every seat, inside
    the compiled code). Copy ``c`` is seeded ``c + (seed mod 2**40) * 2**20`` and its
    seat ``p`` ``that * players + p``, so a ``seed`` gives the same rollouts every time.
    Returns ``(wins, turns)``: per option, the deciding seat's wins and the
    rollouts' summed lengths in turns from the position (int arrays, one entry an
    option).

    With a ``cut``, ``(stop, value)``, a copy is held between two turns at the end of
    the deciding seat's first turn that ends with the turn count at ``stop`` or more
    (:meth:`~machikoro.compiled.games.CompiledGames.hold_at`, from the answer on), and
    ``value(copies, held, seat)`` gives that seat's chance to win in each held copy
    (``held`` their indices): ``wins`` are then floats, a held copy counting its
    chance, and a third array follows, per option the sum of the squared outcomes.
    Raises :class:`~machikoro.errors.CompiledUnsupported` for a rule set or position
    the compiled engine cannot play or say, and :class:`~machikoro.errors.
    MachikoroError` for a game waiting at no decision."""
    decision = game.decision()
    if decision is None:
        raise MachikoroError("rollouts: the game waits at no decision")
    k, players = len(decision.options), game.n
    seeds = np.arange(k * per, dtype=np.int64) + (seed % (1 << 40)) * (1 << 20)
    copies = from_game(game, k * per, seeds)
    if cut is not None:
        copies.hold_at(cut[0], decision.player)
    copies.step(np.repeat(np.arange(k, dtype=np.int64), per))  # copy i * per + j: option i
    seat_seeds = seeds[:, None] * players + np.arange(players)
    if play is None:
        copies.play_random(seat_seeds)
    else:
        play(copies, seat_seeds)
    turns = (copies.turns - game.turn).reshape(k, per).sum(axis=1)
    won = copies.winner == decision.player
    if cut is None:
        return won.reshape(k, per).sum(axis=1), turns
    outcomes = won.astype(np.float64)
    held = np.flatnonzero(copies.held)
    if held.size:
        outcomes[held] = cut[1](copies, held, decision.player)
    outcomes = outcomes.reshape(k, per)
    return outcomes.sum(axis=1), turns, (outcomes * outcomes).sum(axis=1)
