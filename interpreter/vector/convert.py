"""Positions across the two engines: a scalar :class:`~machikoro.engine.game.Game` made into
a batch of copies (:func:`from_game`), and one game of a batch made back into a scalar
``Game`` (:func:`to_game`).

A copy never knows the real game's future: each copy of a batch rolls from its own stream
(the seeds given, else drawn from the system's entropy), and a market deck is shuffled
again for each copy (its order is the real game's future), as
:meth:`~machikoro.engine.game.Game.clone` does for one copy.

A position is a game waiting at a decision (the build, the dice, or a card's choice in the
middle of a hook step or of the income step), a game at the start of a turn, or a game
that is over. In the middle of a step the scalar engine keeps a queue of items; the batch
keeps a cursor into the step's plan (:mod:`machikoro.vector.program`): the two say the same
when the queue is what is left of the plan (the common case). A queue the plan cannot say
(a card activated by another card's choice whose effect is under way, an order of purple
cards chosen by their owner) is refused with :class:`~machikoro.errors.VectorUnsupported`;
:func:`to_game` says every batch position.
"""

from __future__ import annotations

import random

import numpy as np

from ..engine import phases as scalar
from ..engine.game import Game, copy_settings
from ..errors import MachikoroError, VectorUnsupported
from .engine import (
    AFTER_INCOME,
    AFTER_ROLL,
    BEFORE_BUILD,
    BEFORE_ROLL,
    BUILD,
    DICE,
    END,
    INCOME,
    OVER,
    START,
    WHEN_BUILT,
    VectorGames,
)
from .program import HOOK_PLANS, Program

_TO_SCALAR = {START: scalar.START, DICE: scalar.START, BEFORE_ROLL: scalar.BEFORE_ROLL,
              AFTER_ROLL: scalar.AFTER_ROLL, INCOME: scalar.INCOME,
              BEFORE_BUILD: scalar.BEFORE_BUILD, BUILD: scalar.BUILD, END: scalar.END,
              OVER: scalar.OVER, AFTER_INCOME: scalar.AFTER_INCOME,
              WHEN_BUILT: scalar.WHEN_BUILT}
_FROM_SCALAR = {scalar.BEFORE_ROLL: BEFORE_ROLL, scalar.AFTER_ROLL: AFTER_ROLL,
                scalar.INCOME: INCOME, scalar.BEFORE_BUILD: BEFORE_BUILD, scalar.END: END,
                scalar.AFTER_INCOME: AFTER_INCOME, scalar.WHEN_BUILT: WHEN_BUILT}
_HOOK_OF = {BEFORE_ROLL: "before_roll", AFTER_ROLL: "after_roll",
            BEFORE_BUILD: "before_build", END: "end_of_turn",
            AFTER_INCOME: "after_income", WHEN_BUILT: "when_built"}


def _chain(clause) -> list:
    out = []
    while clause is not None:
        out.append(clause)
        clause = clause.rest
    return out


def from_game(game: Game, n: int = 1, seeds=None, max_turns: int | None = -1,
              keep_dice: bool = False, shuffle_decks: bool = True,
              dice=None, hold_turns: bool = False) -> VectorGames:
    """``n`` copies of ``game``'s position as a batch (see the module text): each copy
    waits at the game's decision, or starts its turn; ``seeds`` (one whole number >= 0
    per copy) seed the copies' dice and decks, else they are drawn from the system's
    entropy; ``max_turns`` the copies' turn cap (default: the game's); ``keep_dice`` keeps
    the batch's throws in ``dice_log`` from the start (the lock-step check);
    ``shuffle_decks=False`` keeps the game's decks in their order (a check of the rules,
    not a look-ahead); ``dice``, a callable ``(games, counts) -> faces``, gives the copies'
    rolls instead of their streams (a rule case's scripted rolls); ``hold_turns`` stops
    each copy between turns (:meth:`~machikoro.vector.engine.VectorGames.go_on`).

    Raises :class:`~machikoro.errors.VectorUnsupported` for a rule set the batched engine
    cannot play or a position it cannot say, and :class:`~machikoro.errors.
    MachikoroError` for a game stopped at a chance step (explicit chance) or in the middle
    of a step with nothing pending (call ``decision()`` first)."""
    seeds, max_turns = copy_settings(game, n, seeds, max_turns)
    batch = VectorGames(game.rules, game.n, seeds, max_turns=max_turns, start=False)
    if len(batch.seeds) != n:
        raise MachikoroError(f"from_game: {n} copies but {len(batch.seeds)} seeds")
    batch.scripted = dice
    batch.hold_turns = hold_turns
    _copy_state(batch, game, shuffle_decks)
    fresh, resume = _position(batch, game)
    batch.refresh_menus(np.arange(batch.n))
    if keep_dice:
        batch.dice_log = []
    batch._advance(fresh, resume)
    return batch


def _copy_state(batch: VectorGames, game: Game, shuffle: bool = True) -> None:
    """Everything of ``game``'s state but its step, into every game of ``batch``."""
    n = batch.n
    batch.coins[:] = np.array(game.coins, dtype=batch.coins.dtype)
    batch.owned[:] = np.array(game.owned, dtype=batch.owned.dtype)
    batch.supply[:] = np.array(game.supply, dtype=batch.supply.dtype)
    for m, rows in enumerate(game.marks):
        batch.set_marks(m, rows)
    everyone = np.arange(n)
    for r, deck in enumerate(game.decks):
        if deck is None:
            continue
        cards = np.array(deck, dtype=np.int64)
        if not shuffle:
            batch.decks[r].cards[:, :len(cards)] = cards
        elif len(cards):  # the deck's order is the real game's future: shuffled per copy
            keys = batch.dice_stream.permutation_keys(everyone, len(cards))
            batch.decks[r].cards[:, :len(cards)] = cards[np.argsort(keys, axis=1)]
        batch.decks[r].lo[:] = 0
        batch.decks[r].hi[:] = len(cards)
    batch.current[:] = game.current
    batch.cur_cell[:] = everyone * batch.players + game.current
    batch.turn[:] = game.turn
    batch.extra_turns[:] = game.extra_turns
    width = len(game.dice)
    batch.dice[:] = 0
    if width:
        batch.dice[:, :width] = game.dice
    batch.ndice[:] = width
    batch.total[:] = game.total
    batch.doubles[:] = width > 1 and len(set(game.dice)) == 1
    batch.dice_count[:] = game.dice_count
    batch.rerolled[:] = False
    for card in game.rerolls_used:
        batch.rerolled[:, card] = True
    built = list(game.built_this_turn)
    if len(built) > batch.built.shape[1]:
        raise VectorUnsupported("a turn with more builds than the rules allow")
    batch.nbuilt[:] = len(built)
    for k, card in enumerate(built):
        batch.built[:, k] = card
    batch.builds_left[:] = game.builds_left
    batch.extra_turn[:] = game.extra_turn
    if batch.received is not None:
        batch.received[:] = np.array(game.received, dtype=batch.received.dtype)
    batch.winner[:] = -1 if game.winner is None else game.winner
    batch.bound[:] = -1 if game.bound is None else game.bound
    batch.side[:] = -1
    for card, rolled in (game.side_rolls or {}).items():
        batch.side[:, batch.program.side_index[card]] = rolled
    if game.towns_seen is not game.owned:
        if batch.seen is None:
            raise VectorUnsupported("a copy of the towns on a total the rule set keeps none")
        batch.seen[:] = np.array(game.towns_seen, dtype=batch.seen.dtype)
        batch.seen_on[:] = True
        batch.n_seen = n
    if game.income_moves is not None:
        batch.moves = {g: list(game.income_moves) for g in range(n)}


def _position(batch: VectorGames, game: Game) -> tuple[dict, dict]:
    """Where the copies go on from: ``(fresh, resume)`` for :meth:`VectorGames._advance`."""
    everyone = np.arange(batch.n)
    if game.phase == scalar.OVER:
        batch.phase[:] = OVER
        return {}, {}
    decision = game.pending
    if decision is None:
        if game.phase == scalar.START and not game.queue:
            return {START: everyone}, {}
        raise MachikoroError("the game is in the middle of a step with no decision "
                             "pending: call decision() first")
    if decision.name == "build" and decision.card is None:
        return {}, {BUILD: everyone}
    if decision.name == "dice" and decision.card is None:
        return {DICE: everyone}, {}
    return {}, {_cursor(batch, game): everyone}


def _cursor(batch: VectorGames, game: Game) -> int:
    """Set every copy's plan cursor to the scalar game's queue; returns its phase."""
    program = batch.program
    phase = _FROM_SCALAR.get(game.phase)
    if phase is None:
        raise VectorUnsupported(f"a decision in the {scalar.PHASE_NAMES[game.phase]} step")
    pid = HOOK_PLANS[_HOOK_OF[phase]] if phase != INCOME else program.income_plan(game.total)
    items = program.plans.get(pid, ())
    card, owner, _, clause = game.pending_item
    if card < 0:
        raise VectorUnsupported("a position at the order decision of purple cards")
    roller = game.current
    offset = list(program.order[roller]).index(owner)
    found = None
    for j, item in enumerate(items):
        if item.card != card or item.offset != offset:
            continue
        chain = _chain(item.clause)
        if any(c is clause for c in chain):
            found = (j, next(s for s, c in enumerate(chain) if c is clause))
            break
    if found is None:
        raise VectorUnsupported("a position in the middle of a card activated by another "
                                "card's choice")
    j, step = found
    item = items[j]
    if item.steps[step].kind < 0:
        raise VectorUnsupported("a pending decision the plan does not ask")
    queue = list(game.queue[game.qpos:])
    at = 0  # the copies of item j still to come, then the later items, read off the queue
    while at < len(queue) and queue[at][0] == card and queue[at][1] == owner and \
            queue[at][3] is item.clause:
        at += 1
    entry_of = batch._entries[pid][2]
    copies_of = {int(entry_of[j]): 1 + at}
    for i in range(j + 1, len(items)):
        it = items[i]
        seat = int(program.order[roller, it.offset])
        copies = 0
        if it.asks:
            while at < len(queue) and queue[at][:3] == (it.card, seat, 1) and \
                    queue[at][3] is it.clause:
                copies, at = copies + 1, at + 1
        elif at < len(queue) and queue[at][:2] == (it.card, seat) and \
                queue[at][3] is it.clause:
            copies, at = queue[at][2], at + 1
        entry = int(entry_of[i])
        if copies_of.get(entry, copies) != copies and copies:
            raise VectorUnsupported("a position whose queue the plan cannot say")
        copies_of[entry] = max(copies, copies_of.get(entry, 0))
    if at != len(queue):
        raise VectorUnsupported("a position whose queue the plan cannot say (a card "
                                "activated by another, or an order chosen by its owner)")
    batch.act_copies[:] = 0
    for entry, copies in copies_of.items():
        batch.act_copies[:, entry] = copies
    batch.plan[:] = pid
    batch.main.pos[:] = j
    batch.main.copy[:] = 0
    batch.main.step[:] = step  # the copies take up the chain there: asked again
    batch.recorded[:] = True
    batch.order_state[:] = 0 if batch._block_of[pid].get(j) is None else 1
    batch.phase[:] = phase
    return phase


def to_game(batch: VectorGames, g: int, seed: int | None = None,
            builds: bool = True) -> Game:
    """Game ``g`` of ``batch`` as a scalar :class:`~machikoro.engine.game.Game` at the
    same position (the same decision pending, with the same options), rolling its own
    dice from ``seed`` (else the system's entropy) and with its decks shuffled again, as a
    clone. Its ``history`` is empty (a batch keeps no answers); its ``builds`` record is the
    game's builds when the batch kept them and ``builds`` is true (no agent reads the
    record: the scalar fallback of a batched policy leaves it out)."""
    rules = batch.rules
    game = Game(rules, batch.players, seed=seed if seed is not None else
                random.SystemRandom().randrange(1 << 63), max_turns=batch.max_turns)
    game.coins = batch.coins[g].astype(int).tolist()
    game.owned = batch.owned[g].astype(int).tolist()
    game.towns_seen = game.owned
    game.supply = batch.supply[g].astype(int).tolist()
    game.marks = [batch.full_marks(m, [g])[0].astype(int).tolist()
                  for m in range(len(batch.marks))]
    decks = []
    for deck in batch.decks:
        if deck is None:
            decks.append(None)
            continue
        cards = deck.of(g)
        game.rng.shuffle(cards)  # the order is the batch game's future
        decks.append(cards)
    game.decks = decks
    game._menus = [None] * game.n
    game.current = int(batch.current[g])
    game.turn = int(batch.turn[g])
    game.extra_turns = int(batch.extra_turns[g])
    width = int(batch.ndice[g])
    game.dice = tuple(int(x) for x in batch.dice[g, :width])
    game.total = int(batch.total[g])
    game.dice_count = int(batch.dice_count[g])
    game.rerolls_used = [c for c in batch.program.reroll_cards if batch.rerolled[g, c]]
    game.built_this_turn = [int(c) for c in batch.built[g, :int(batch.nbuilt[g])]]
    game.builds_left = int(batch.builds_left[g])
    game.extra_turn = bool(batch.extra_turn[g])
    if batch.received is not None:
        game.received = batch.received[g].astype(int).tolist()
    game.winner = None if batch.winner[g] < 0 else int(batch.winner[g])
    game.bound = None if batch.bound[g] < 0 else int(batch.bound[g])
    if game.side_rolls is not None:
        game.side_rolls = {card: int(batch.side[g, batch.program.side_index[card]])
                           for card in batch.program.side_cards
                           if batch.side[g, batch.program.side_index[card]] >= 0}
    seen = bool(batch.n_seen and batch.seen_on[g])
    if seen:
        game.towns_seen = batch.seen[g].astype(int).tolist()
    if seen or g in batch.moves:  # (the batch logs the moves of followed cards only)
        game.income_moves = list(batch.moves.get(g, ()))
    if batch.builds is not None and builds:
        ids = rules.ids
        for games, turns, seats, cards in batch.builds:  # one entry per build step
            rows = np.flatnonzero(games == g)
            game.builds += [(int(turns[i]), int(seats[i]), ids[int(cards[i])])
                            for i in rows.tolist()]
    _scalar_step(batch, g, game)
    return game


def _scalar_step(batch: VectorGames, g: int, game: Game) -> None:
    """Put the scalar game in the batch game's step, waiting at its decision."""
    phase = int(batch.phase[g])
    kind = int(batch.pending[g])
    game.queue, game.qpos, game.qins = [], 0, 0
    if phase == OVER:
        game.phase = scalar.OVER
        return
    if kind == Program.BUILD:
        game.phase = scalar.BUILD
        game.pending = game._build_decision(game.current)
        return
    if kind == Program.DICE:
        game.phase = scalar.START
        game._choose_dice()
        return
    if kind < 0 and phase == START:  # between turns: the next one starts when played on
        game.phase = scalar.START
        return
    if kind < 0:
        raise MachikoroError(f"game {g} of the batch waits at no decision")
    game.phase = _TO_SCALAR[phase]
    game.queue = _scalar_queue(batch, g)
    game._run_queue()
    if game.pending is None:
        raise MachikoroError(f"game {g}: the scalar engine asks no decision where the "
                             f"batch waits ({batch.decision_name(kind, g)})")


def _scalar_queue(batch: VectorGames, g: int) -> list:
    """The scalar queue of game ``g``'s plan walk from its cursor: the item waiting (its
    chain from the step that asks), its copies left, then the plan's later items."""
    program = batch.program
    pid = int(batch.plan[g])
    items = program.plans[pid]
    entry_of = batch._entries[pid][2]
    roller = int(batch.current[g])
    queue = []

    def seat_of(item):
        return int(program.order[roller, item.offset])

    def slot_item(j):
        return int(batch.exec_order[g, j]) if batch.order_state[g] == 2 else j

    if batch.ins_card[g] >= 0:  # an activated card's clauses, then the activating chain
        card = int(batch.ins_card[g])
        owner = int(batch.ins_owner[g])
        plan = program.card_plans[card]
        copies = int(batch.ins_copies[g])
        p, cp, st = (int(batch.inserted.pos[g]), int(batch.inserted.copy[g]),
                     int(batch.inserted.step[g]))
        for j in range(p, len(plan)):
            it = plan[j]
            chain = _chain(it.clause)
            if it.asks:
                first = cp if j == p else 0
                for c in range(first, copies):
                    clause = chain[st] if (j == p and c == first) else it.clause
                    queue.append((card, owner, 1, clause))
            else:
                queue.append((card, owner, copies, it.clause))
    j = int(batch.main.pos[g])
    kind = int(batch.pending[g])
    if program.choices[kind].shape == "order":  # waiting at a block's order decision
        block = next(b for b in program.blocks[pid] if b.kind == kind)
        queue.append(_order_item(batch, g, block))
        j = block.start - 1  # then the block's items, and on
        return _later_items(batch, g, queue, j, slot_item, seat_of, asked=block.start)
    it = items[slot_item(j)]
    chain = _chain(it.clause)
    step, copy = int(batch.main.step[g]), int(batch.main.copy[g])
    copies = int(batch.act_copies[g, entry_of[slot_item(j)]])
    seat = seat_of(it)
    if batch.ins_card[g] >= 0 and step == 0:  # the activating chain ended: next copies
        left = copies - copy
    else:  # the chain goes on at ``step`` (after the activation, when there is one)
        queue.append((it.card, seat, 1, chain[step]))
        left = copies - copy - 1
    queue.extend([(it.card, seat, 1, it.clause)] * max(left, 0))
    return _later_items(batch, g, queue, j, slot_item, seat_of)


def _later_items(batch: VectorGames, g: int, queue: list, j: int, slot_item,
                 seat_of, asked: int = -1) -> list:
    """``queue`` with the items of game ``g``'s plan after place ``j`` (and the order
    decisions of the blocks among them, but the one of the block at ``asked``, which is
    the decision waiting)."""
    program = batch.program
    pid = int(batch.plan[g])
    items = program.plans[pid]
    entry_of = batch._entries[pid][2]
    blocks = {b.start: b for b in program.blocks[pid]}
    for k in range(j + 1, len(items)):
        block = blocks.get(k) if k != asked else None
        if block is not None:  # the owner's order decision, queued with the roll's items
            order = _order_item(batch, g, block)
            if order is not None:
                queue.append(order)
        nxt = items[slot_item(k)]
        copies = int(batch.act_copies[g, entry_of[slot_item(k)]])
        if copies:
            seat = seat_of(nxt)
            queue.extend([(nxt.card, seat, 1, nxt.clause)] * copies if nxt.asks
                         else [(nxt.card, seat, copies, nxt.clause)])
    return queue


def _order_item(batch: VectorGames, g: int, block) -> tuple | None:
    """The scalar queue item of a block's ``order`` decision for game ``g`` (or None when
    the owner has fewer than two cards whose order matters), counting the items after it
    in the block as the scalar engine does."""
    from ..engine.ordering import order_clause

    rules, program = batch.rules, batch.program
    owner = int(program.order[int(batch.current[g]), block.offset])
    kinds = [c for c, _ in block.candidates if batch.owned[g, owner, c] > 0]
    involved = tuple(k for k in kinds if any(frozenset((k, o)) in rules.conflicts
                                             for o in kinds if o != k))
    if len(involved) < 2:
        return None
    items = program.plans[int(batch.plan[g])]
    entry_of = batch._entries[int(batch.plan[g])][2]
    count = 0
    for i in range(block.start, block.stop):
        copies = int(batch.act_copies[g, entry_of[i]])
        count += copies if items[i].asks else (1 if copies else 0)
    return (-1, owner, count, order_clause(involved))


__all__ = ["from_game", "to_game"]
