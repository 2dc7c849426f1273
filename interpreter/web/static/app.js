// The machikoro web app's page: plain JavaScript over the JSON routes of machikoro.web.app.
// Everything drawn comes from the server's JSON (the card faces from the card data); no
// card, icon or colour is named here.
"use strict";

const params = new URLSearchParams(location.search);
const PAUSE = Number(params.get("pause") ?? 700);   // ms before an agent's move is asked
const POLL = Number(params.get("poll") ?? 3000);    // ms between looks at the game (0: never)
let timer = null;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

async function api(method, url, body) {
  const init = {method, headers: {}};
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url, init);
  let data = {};
  try { data = await response.json(); } catch (e) { data = {error: response.statusText}; }
  return {ok: response.ok, status: response.status, data};
}

function status(text) { document.getElementById("status").textContent = text || ""; }

function showProblems(box, data) {
  box.hidden = false;
  box.replaceChildren(el("p", {class: "error", text: data.error || "refused"}));
  if (data.problems) box.append(el("pre", {text: data.problems.join("\n")}));
}

// ---------------------------------------------------------------- card faces

function colourOf(name) {
  if (!name) return null;
  if (window.CSS && CSS.supports("color", name)) return name;
  let hash = 0;
  for (const c of name) hash = (hash * 31 + c.charCodeAt(0)) % 360;
  return `hsl(${hash} 55% 45%)`;
}

function rolls(numbers) {
  if (!numbers.length) return "";
  const sorted = [...numbers].sort((a, b) => a - b);
  const run = sorted.every((n, i) => i === 0 || n === sorted[i - 1] + 1);
  return run && sorted.length > 1 ? `${sorted[0]}-${sorted.at(-1)}` : sorted.join(",");
}

// A cost in coins: a tiered cost lists its tiers, the one that applies to the player
// marked (.tier-now); `cost` is what it costs that player now (a card in play may change it).
function costNode(face, cost = null, tier = null) {
  const node = el("span", {class: "cost"});
  const now = cost ?? face.cost;
  if (!face.tiers) {
    node.append(now < 0 ? `+${-now}¢` : `${now}¢`);
    return node;
  }
  face.tiers.forEach((c, i) => {
    if (i) node.append("/");
    node.append(i === tier ? el("b", {class: "tier-now", title: "the tier that applies", text: c}) : `${c}`);
  });
  node.append("¢");
  if (tier !== null && face.tiers[tier] !== now) node.append(el("span", {class: "cost-now", text: ` → ${now}¢`}));
  return node;
}

function faceWords(face) {
  const words = [];
  if (face.effect) words.push(face.effect);
  if (face.wins) words.push("building it wins the game");
  if (face.everyone) words.push("works for every player once anyone has built it");
  if (face.build_if) words.push(`build only if ${face.build_if}`);
  return words;
}

// One card face. `tag` "button" makes it a button (an option, a market card to build);
// `cost`/`tier`: what it costs the player marked; `effect`: show the effect text.
function cardTile(face, {copies = null, note = null, effect = false, unbuilt = false,
                         cost = null, tier = null, tag = "div", extra = {}} = {}) {
  const colour = colourOf(face.colour);
  const span = tag === "button";   // a button holds phrasing content only
  const part = (cls, text) => el(span ? "span" : "div", {class: cls, text});
  const tile = el(tag, {
    class: `card kind-${face.kind}` + (unbuilt ? " unbuilt" : "") + (extra.class ? ` ${extra.class}` : ""),
    title: `${face.name}: ${faceWords(face).join("; ")}`,
    "data-card": face.id,
    "data-cost": cost, "data-tier": tier,
    style: colour ? `--c: ${colour}` : null,
    ...Object.fromEntries(Object.entries(extra).filter(([k]) => k !== "class")),
  });
  const head = el(span ? "span" : "div", {class: "card-head"},
    el("span", {class: "roll", text: rolls(face.activation)}),
    el("span", {class: "icons", text: face.icons.length ? face.icons.join(" ") : face.colour ? "" : face.kind}));
  tile.append(head, part("card-name", face.name));
  if (effect) tile.append(part("card-effect", faceWords(face).join("; ")));
  const foot = el(span ? "span" : "div", {class: "card-foot"}, costNode(face, cost, tier));
  if (copies !== null) foot.append(el("span", {class: "copies", text: `×${copies}`}));
  tile.append(foot);
  if (note) tile.append(part("card-note", note));
  return tile;
}

// The whole face of a card, for the card view (hover, focus or tap on any card).
function faceView(face, cost, tier) {
  const facts = [face.colour || face.kind, ...face.icons];
  if (face.activation.length) facts.push(`activates on ${rolls(face.activation)}`);
  if (face.limit !== null && face.limit !== undefined) facts.push(`at most ${face.limit} a player`);
  const colour = colourOf(face.colour);
  return el("div", {class: `face kind-${face.kind}`, style: colour ? `--c: ${colour}` : null},
    el("div", {class: "face-name", text: face.name}),
    el("div", {class: "face-facts", text: facts.join(" · ")}),
    ...faceWords(face).map(w => el("div", {class: "face-effect", text: w})),
    el("div", {class: "face-cost"}, cost === null ? "cost " : "cost to this player ",
       costNode(face, cost, tier)));
}

// The card view follows the pointer (hover), the keyboard (focus) and a tap on a card
// that is not a button; a tap elsewhere or Escape closes it.
function watchFaces(root, faces) {
  const byId = () => Object.fromEntries(faces().map(f => [f.id, f]));
  const view = root.querySelector(".face-view");
  const show = tile => {
    const face = byId()[tile.dataset.card];
    if (!face) return;
    const number = key => (tile.dataset[key] === undefined ? null : Number(tile.dataset[key]));
    view.replaceChildren(faceView(face, number("cost"), number("tier")));
    view.dataset.card = face.id;
    view.hidden = false;
  };
  const hide = () => { view.hidden = true; delete view.dataset.card; };
  root.addEventListener("mouseover", e => {
    const tile = e.target.closest("[data-card]");
    if (tile && !view.contains(tile)) show(tile);
  });
  root.addEventListener("mouseout", e => {
    if (e.target.closest("[data-card]") && !e.relatedTarget?.closest?.("[data-card]")) hide();
  });
  root.addEventListener("focusin", e => { const t = e.target.closest("[data-card]"); if (t) show(t); });
  root.addEventListener("click", e => {
    const tile = e.target.closest("[data-card]");
    if (tile && tile.tagName !== "BUTTON") show(tile);
    else if (!tile) hide();
  });
  document.addEventListener("keydown", e => { if (e.key === "Escape") hide(); });
}

function marksText(marks) {
  return marks.map(m => m.coins ? `${m.copies} coin${m.copies === 1 ? "" : "s"} on it`
                                : `${m.copies} ${m.name}`).join(", ") || null;
}

// ---------------------------------------------------------------- the table

// `build`: {card id: option} of the pending build decision a person answers here, and
// `choose(index)` to answer it (a market card among them is a button that builds it).
function renderTable(root, table, faces, seats, build = null) {
  const byId = Object.fromEntries(faces.map(f => [f.id, f]));
  const players = root.querySelector(".players");
  players.replaceChildren();
  for (const p of table.players) {
    const current = p.seat === table.current && !table.over;
    const box = el("section", {class: "player" + (current ? " current" : ""),
                               "aria-label": `player ${p.name}`, "data-seat": p.seat});
    box.append(el("h2", {},
      el("span", {class: "pname", text: `${p.name}`}),
      el("span", {class: "agent", text: p.agent}),
      el("span", {class: "coins", "data-coins": p.coins,
                  text: `${p.coins} coin${p.coins === 1 ? "" : "s"}`}),
      current ? el("span", {class: "turn-mark", text: "to play"}) : null,
      table.winner === p.seat ? el("span", {class: "turn-mark win", text: "winner"}) : null));
    const marks = el("div", {class: "row landmarks"});
    for (const l of p.landmarks) {
      marks.append(cardTile(byId[l.id], {unbuilt: !l.built, cost: l.cost, tier: l.tier ?? null,
                                         note: l.built ? "built" : "not built"}));
    }
    const town = el("div", {class: "row town"});
    for (const c of p.town) {
      town.append(cardTile(byId[c.id], {copies: c.copies, note: marksText(c.marks)}));
    }
    box.append(el("h3", {text: "Landmarks"}), marks, el("h3", {text: "Town"}), town);
    players.append(box);
  }
  renderMarket(root, table, byId, build);
  renderDice(root, table);
}

function renderMarket(root, table, byId, build) {
  const market = root.querySelector(".market");
  market.replaceChildren();
  const buyer = table.players[table.costs_for ?? table.current];
  if (buyer) market.append(el("p", {class: "costs-for", text: `costs for ${buyer.name}`}));
  table.market.forEach((row, r) => {
    const label = table.market.length > 1 ? `Row ${r + 1}` : "Face up";
    const deck = row.deck === null ? "" : ` · ${row.deck} in the deck`;
    const tiles = el("div", {class: "row"});
    for (const c of row.cards) {
      const option = build && build.options[c.id];
      const shown = {copies: c.copies, effect: true, cost: c.cost ?? null, tier: c.tier ?? null};
      if (option) {
        Object.assign(shown, {tag: "button", extra: {
          class: "buildable", "data-index": option.index, "aria-label": option.label,
          onclick: () => build.choose(option.index)}});
      }
      tiles.append(cardTile(byId[c.id], shown));
    }
    if (!row.cards.length) tiles.append(el("p", {class: "empty", text: "nothing face up"}));
    market.append(el("div", {class: "market-row", "data-row": r},
                     el("h3", {text: label + deck}), tiles));
  });
}

// The dice say whose roll they show; before the turn's roll they are empty.
function renderDice(root, table) {
  const dice = root.querySelector(".dice");
  const who = table.roller === null || table.roller === undefined ? null : table.players[table.roller];
  dice.dataset.roller = who ? who.seat : "";
  if (!who || !table.dice.length) {
    const next = table.over ? null : table.players[table.current];
    dice.replaceChildren(el("span", {class: "dice-who", text: next ? `${next.name} has not rolled yet` : "no roll"}));
    return;
  }
  dice.replaceChildren(el("span", {class: "dice-who", text: `${who.name} rolled`}),
                       ...table.dice.map(d => el("span", {class: "die", text: d})));
  if (table.dice.length > 1 || table.total !== table.dice[0]) {
    dice.append(el("span", {class: "total", text: `= ${table.total}`}));
  }
}

function renderEvents(root, events) {
  const list = root.querySelector(".events");
  list.replaceChildren(...events.map(e => el("li", {class: e.head ? "head" : "", text: e.text})));
  list.scrollTop = list.scrollHeight;
}

function title(table) {
  const who = table.players[table.current].name;
  if (table.over) {
    return table.winner === null ? `${table.ruleset} · over: no winner (turn limit)`
                                 : `${table.ruleset} · ${table.players[table.winner].name} wins after ${table.turn} turns`;
  }
  return `${table.ruleset} · turn ${table.turn + 1} · ${who} to play`;
}

// ---------------------------------------------------------------- a game

// The hint's budget: `?hint=games:N` (rollouts, no time limit: the same answer every
// time) or `?hint=seconds:S`; else the server's default (seconds of CPU).
function hintBudget(defaults) {
  const [kind, value] = (params.get("hint") || "").split(":");
  if (kind === "games" && /^\d+$/.test(value)) return {body: {games: Number(value), seconds: null}, text: `${Number(value).toLocaleString("en")} games`};
  if (kind === "seconds" && Number(value) > 0) return {body: {seconds: Number(value)}, text: `${value} s of CPU`};
  return {body: {}, text: `${defaults.seconds} s of CPU`};
}

function percent(rate) { return `${(100 * rate).toFixed(1)}%`; }

function renderHint(box, hint, faces) {
  const b = hint.budget;
  const list = el("ol", {class: "hint-list"});
  const top = hint.options[0];
  for (const o of hint.options) {
    const width = `${Math.round(100 * o.rate)}%`;
    list.append(el("li", {"data-index": o.index, "data-rate": o.rate, "data-low": o.low,
                          "data-high": o.high, "data-games": o.games},
      el("span", {class: "hint-label", text: o.label}),
      el("span", {class: "hint-rate", text: `${percent(o.rate)} (${percent(o.low)}–${percent(o.high)})`}),
      el("span", {class: "hint-bar", style: `--w: ${width}`}),
      el("span", {class: "hint-games", text: `${o.games.toLocaleString("en")} games`})));
  }
  const games = hint.options.reduce((n, o) => n + o.games, 0);
  box.replaceChildren(
    el("p", {class: "hint-head", text: `Best by the advisor: ${top.label} — win rate ${percent(top.rate)} ` +
             `(95% interval ${percent(top.low)}–${percent(top.high)})`}),
    list,
    el("p", {class: "hint-note", text: `${games.toLocaleString("en")} games played out by greedy in every seat, ` +
             `${hint.cpu_seconds.toFixed(1)} s of CPU (budget ${b.seconds === null ? "none" : b.seconds + " s"}, ` +
             `${b.games.toLocaleString("en")} games; seed ${b.seed})`}));
  box.hidden = false;
}

// The options of a decision: a build option is its card's face (what it costs this
// player, its tier marked), any other a button of words.
function optionButtons(d, faces, choose) {
  const byId = Object.fromEntries(faces.map(f => [f.id, f]));
  const building = d.name === "build" && d.card === null;
  const buttons = el("div", {class: "options" + (building ? " faces" : ""), role: "group",
                             "aria-label": "options"});
  for (const o of d.options) {
    if (building && o.card && byId[o.card]) {
      buttons.append(cardTile(byId[o.card], {tag: "button", effect: true, cost: o.cost, tier: o.tier,
        extra: {class: "option build-option", "data-index": o.index, "aria-label": o.label,
                onclick: () => choose(o.index)}}));
    } else {
      buttons.append(el("button", {class: "option", "data-index": o.index, text: o.label,
                                   "data-card": o.card, onclick: () => choose(o.index)}));
    }
  }
  return buttons;
}

async function gameView(id) {
  const main = document.getElementById("main");
  main.replaceChildren(document.getElementById("table").content.cloneNode(true));
  const root = main.querySelector(".game");
  const settings = (await api("GET", "/api/options")).data;
  const budget = hintBudget(settings.hint || {seconds: 2});
  let shown = -1;
  let faces = [];
  watchFaces(root, () => faces);

  async function refresh(notice) {
    const {ok, data} = await api("GET", `/api/games/${id}`);
    if (!ok) { status(data.error); return; }
    render(data, notice);
  }

  function render(view, notice) {
    shown = view.step;
    faces = view.cards;
    root.dataset.step = view.step;
    root.querySelector(".title").textContent = title(view.table);
    const d = view.decision;
    const building = d && d.human && d.name === "build" && d.card === null;
    const build = building ? {options: Object.fromEntries(d.options.filter(o => o.card).map(o => [o.card, o])),
                              choose: index => answer(view.step, index)} : null;
    renderTable(root, view.table, view.cards, view.seats, build);
    renderEvents(root, view.events);
    const box = root.querySelector(".notice");
    box.hidden = !notice;
    box.textContent = notice || "";
    const controls = root.querySelector(".controls");
    controls.replaceChildren(el("span", {class: "saved-as", text: `log: ${view.log}`}));
    if (view.branch) {
      controls.append(el("span", {class: "branch",
                                  text: ` · continued from ${view.branch.log} after turn ${view.branch.turn}`}));
    }
    const decision = root.querySelector(".decision");
    decision.replaceChildren();
    clearTimeout(timer);
    if (!d) {
      decision.append(el("p", {class: "over", text: title(view.table)}),
        el("button", {class: "primary", text: "Replay this game",
                      onclick: () => openSaved(view.log, decision)}));
      status("the game is over");
      return;
    }
    if (d.human) {
      decision.append(el("p", {class: "question", text: d.question}),
                      optionButtons(d, view.cards, index => answer(view.step, index)));
      const result = el("div", {class: "hint-result", hidden: true, "aria-live": "polite"});
      decision.append(el("div", {class: "hint-row"},
        el("button", {class: "hint", text: `Hint (${budget.text})`,
                      title: "rank the options by the advisor's win rate, played out from here",
                      onclick: e => hint(view.step, e.target, result)})), result);
      status(`your decision (${view.table.players[d.player].name})`);
      if (POLL > 0) timer = setTimeout(poll, POLL);
    } else {
      const who = view.table.players[d.player];
      decision.append(el("p", {class: "thinking", text: `${who.name} (${who.agent}) is choosing…`}));
      status(`${who.name} is choosing`);
      timer = setTimeout(() => advance(view.step), PAUSE);
    }
  }

  async function hint(step, button, result) {
    button.disabled = true;
    result.hidden = false;
    result.replaceChildren(el("p", {class: "hint-wait", text: `the advisor is playing the options out (${budget.text})…`}));
    const {ok, data} = await api("POST", `/api/games/${id}/hint`, {step, ...budget.body});
    button.disabled = false;
    if (ok) renderHint(result, data, faces);
    else result.replaceChildren(el("p", {class: "error", text: `no hint: ${data.error}`}));
  }

  async function poll() {
    const {ok, data} = await api("GET", `/api/games/${id}`);
    if (ok && data.step !== shown) render(data, "the game moved on (another page answered)");
    else if (POLL > 0) timer = setTimeout(poll, POLL);
  }

  async function answer(step, index) {
    root.querySelectorAll("button.option, button.buildable").forEach(b => { b.disabled = true; });
    const {ok, data} = await api("POST", `/api/games/${id}/answer`, {step, option: index});
    if (ok) render(data);
    else await refresh(`refused: ${data.error}`);
  }

  async function advance(step) {
    const {ok, status: code, data} = await api("POST", `/api/games/${id}/advance`, {step});
    if (ok) render(data);
    else await refresh(code === 409 ? null : `refused: ${data.error}`);
  }

  await refresh();
}

// ---------------------------------------------------------------- a replay

async function openSaved(name, box) {
  const {ok, data} = await api("POST", "/api/replays", {saved: name});
  if (ok) location.assign(`/replay/${data.id}`);
  else showProblems(box, data);
}

function seatInputs(container, count, defaults) {
  container.replaceChildren();
  for (let i = 0; i < count; i++) {
    container.append(el("label", {},
      `P${i + 1} `,
      el("input", {name: `seat${i}`, class: "seat", list: "agent-names", value: defaults[i] || "greedy",
                   "aria-label": `seat P${i + 1}`})));
  }
}

async function replayView(id) {
  const main = document.getElementById("main");
  main.replaceChildren(document.getElementById("table").content.cloneNode(true));
  const root = main.querySelector(".game");
  const options = (await api("GET", "/api/options")).data;
  main.append(el("datalist", {id: "agent-names"},
                 ...(options.agents || []).concat(options.strategies || []).map(a => el("option", {value: a}))));
  let view = null;
  watchFaces(root, () => (view ? view.cards : []));

  async function go(turn) {
    const {ok, data} = await api("GET", `/api/replays/${id}?turn=${encodeURIComponent(turn)}`);
    const box = root.querySelector(".notice");
    if (!ok) { box.hidden = false; box.textContent = `refused: ${data.error}`; return; }
    box.hidden = true;
    view = data;
    render();
  }

  function render() {
    root.dataset.turn = view.turn;
    const t = view.table;
    root.querySelector(".title").textContent =
      `Replay of ${view.name} · ${t.ruleset} · after turn ${view.turn} of ${view.last}` +
      (view.complete ? "" : " (the log stops before the end)");
    renderTable(root, t, view.cards, view.agents);
    renderEvents(root, view.events);
    const controls = root.querySelector(".controls");
    const slider = el("input", {type: "range", min: 0, max: view.last, value: view.turn,
                                "aria-label": "turn", onchange: e => go(e.target.value)});
    const jump = el("input", {type: "number", min: 0, max: view.last, value: view.turn,
                              "aria-label": "jump to turn", class: "jump"});
    controls.replaceChildren(
      el("button", {text: "◀ Back", disabled: view.turn === 0, onclick: () => go(view.turn - 1)}),
      slider,
      el("button", {text: "Forward ▶", disabled: view.turn === view.last, onclick: () => go(view.turn + 1)}),
      el("label", {}, "Turn ", jump),
      el("button", {text: "Go", onclick: () => go(jump.value)}));
    const decision = root.querySelector(".decision");
    const seats = el("div", {class: "seats"});
    const defaults = view.agents.map((a, i) => (i === 0 ? "human" : a === "human" ? "greedy" : a));
    seatInputs(seats, view.agents.length, defaults);
    const problems = el("div", {class: "problems", hidden: true});
    decision.replaceChildren(
      el("p", {class: "question", text: `Continue from here (after turn ${view.turn}) with:`}),
      seats,
      el("button", {class: "primary", text: "Continue from here", onclick: async () => {
        const chosen = [...seats.querySelectorAll("input")].map(i => i.value.trim());
        const {ok, data} = await api("POST", `/api/replays/${id}/continue`, {turn: view.turn, seats: chosen});
        if (ok) location.assign(`/game/${data.id}`);
        else showProblems(problems, data);
      }}), problems);
    status(`replay · turn ${view.turn}`);
  }

  await go(Number(params.get("turn") ?? 0));
}

// ---------------------------------------------------------------- the home page

async function home() {
  const main = document.getElementById("main");
  main.replaceChildren(document.getElementById("home").content.cloneNode(true));
  const options = (await api("GET", "/api/options")).data;
  const list = document.getElementById("agent-names");
  for (const a of options.agents.concat(options.strategies)) list.append(el("option", {value: a}));
  if (options.budget) {
    document.getElementById("seat-hint").textContent =
      `Budgets: mcts:N up to ${options.budget.most.toLocaleString("en")}, rollouts:N up to ` +
      `${options.budget.most_unstoppable.toLocaleString("en")}; an agent's move stops after ` +
      `${options.move_seconds} s.`;
  }
  main.querySelectorAll("select.variant").forEach((select, n) => {
    select.append(el("option", {value: "", text: n === 0 ? "base set" : "(none)"}));
    for (const v of options.variants) {
      // the command line's rule sets by their name; the bundled ones by the name to type
      const text = v.key.startsWith("cli:") ? v.label : `${v.key} — ${v.label}`;
      select.append(el("option", {value: v.key, text}));
    }
    if (n === 0 && options.variant) select.value = options.variant;
  });
  const form = document.getElementById("new-game");
  const seatList = document.getElementById("seat-list");
  const reseat = () => seatInputs(seatList, Number(form.players.value), ["human"]);
  form.players.addEventListener("change", reseat);
  reseat();
  form.addEventListener("submit", async event => {
    event.preventDefault();
    const variants = [...form.querySelectorAll("select.variant")].map(s => s.value).filter(Boolean);
    const seats = [...seatList.querySelectorAll("input")].map(i => i.value.trim());
    const seedText = form.seed.value.trim();
    const body = {variants, seats, seed: seedText === "" ? null : Number(seedText)};
    if (seedText !== "" && !/^\d+$/.test(seedText)) body.seed = seedText;
    const {ok, data} = await api("POST", "/api/games", body);
    if (ok) location.assign(`/game/${data.id}${location.search}`);
    else showProblems(document.getElementById("new-problems"), data);
  });
  document.getElementById("log-file").addEventListener("change", async event => {
    const file = event.target.files[0];
    if (!file) return;
    const text = await file.text();
    const {ok, data} = await api("POST", "/api/replays", {name: file.name, text});
    if (ok) location.assign(`/replay/${data.id}${location.search}`);
    else showProblems(document.getElementById("replay-problems"), data);
  });
  const saved = document.getElementById("saved");
  const logs = (await api("GET", "/api/logs")).data;
  for (const game of logs.games || []) saved.append(savedGame(game));
  if (!logs.logs.length) saved.append(el("li", {text: `none yet (saved in ${logs.folder})`}));
  status("");
}

// One saved game: its rule set, players and agents, winner, turns and date; its file's
// name opens it.
function savedGame(game) {
  const open = () => openSaved(game.name, document.getElementById("replay-problems"));
  const item = el("li", {class: "saved-game", "data-name": game.name});
  if (game.problem) {
    item.append(el("button", {class: "link", text: game.name, onclick: open}),
                el("span", {class: "saved-facts", text: ` · ${game.problem} · ${game.date}`}));
    return item;
  }
  const seats = game.players.map((p, i) => `${p} ${game.agents[i] ?? "?"}`).join(", ");
  const result = game.winner ? `${game.winner} won` : game.over ? "no winner (turn limit)" : "unfinished";
  const turns = game.turns === null ? "" : ` after ${game.turns} turn${game.turns === 1 ? "" : "s"}`;
  item.append(
    el("button", {class: "link saved-title", text: `${game.ruleset} · ${result}${turns}`, onclick: open}),
    el("div", {class: "saved-facts", text: `${seats} · ${game.date}` +
               (game.branch ? ` · continued from ${game.branch.log} after turn ${game.branch.turn}` : "")}),
    el("div", {class: "saved-name", text: game.name}));
  return item;
}

function route() {
  const parts = location.pathname.split("/").filter(Boolean);
  if (parts[0] === "game" && parts[1]) return gameView(parts[1]);
  if (parts[0] === "replay" && parts[1]) return replayView(parts[1]);
  return home();
}

route();
