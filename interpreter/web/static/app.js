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

function cardTile(face, {copies = null, note = null, effect = false, unbuilt = false} = {}) {
  const colour = colourOf(face.colour);
  const tile = el("div", {
    class: `card kind-${face.kind}` + (unbuilt ? " unbuilt" : ""),
    title: `${face.name}: ${face.everyone ? "(every player) " : ""}${face.effect}`,
    "data-card": face.id,
    style: colour ? `--c: ${colour}` : null,
  });
  const head = el("div", {class: "card-head"},
    el("span", {class: "roll", text: rolls(face.activation)}),
    el("span", {class: "icons", text: face.icons.join(" ")}));
  tile.append(head, el("div", {class: "card-name", text: face.name}));
  if (effect) tile.append(el("div", {class: "card-effect", text: face.effect}));
  const foot = el("div", {class: "card-foot"},
    el("span", {class: "cost", text: `${face.tiers ? face.tiers.join("/") : face.cost}¢`}));
  if (copies !== null) foot.append(el("span", {class: "copies", text: `×${copies}`}));
  tile.append(foot);
  if (note) tile.append(el("div", {class: "card-note", text: note}));
  return tile;
}

function marksText(marks) {
  return marks.map(m => m.coins ? `${m.copies} coin${m.copies === 1 ? "" : "s"} on it`
                                : `${m.copies} ${m.name}`).join(", ") || null;
}

// ---------------------------------------------------------------- the table

function renderTable(root, table, faces, seats) {
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
      marks.append(cardTile(byId[l.id], {unbuilt: !l.built,
                                         note: l.built ? "built" : `not built · ${l.cost}¢`}));
    }
    const town = el("div", {class: "row town"});
    for (const c of p.town) {
      town.append(cardTile(byId[c.id], {copies: c.copies, note: marksText(c.marks)}));
    }
    box.append(el("h3", {text: "Landmarks"}), marks, el("h3", {text: "Town"}), town);
    players.append(box);
  }
  const market = root.querySelector(".market");
  market.replaceChildren();
  table.market.forEach((row, r) => {
    const label = table.market.length > 1 ? `Row ${r + 1}` : "Face up";
    const deck = row.deck === null ? "" : ` · ${row.deck} in the deck`;
    const tiles = el("div", {class: "row"});
    for (const c of row.cards) tiles.append(cardTile(byId[c.id], {copies: c.copies, effect: true}));
    if (!row.cards.length) tiles.append(el("p", {class: "empty", text: "nothing face up"}));
    market.append(el("div", {class: "market-row", "data-row": r},
                     el("h3", {text: label + deck}), tiles));
  });
  const dice = root.querySelector(".dice");
  dice.replaceChildren(...table.dice.map(d => el("span", {class: "die", text: d})));
  if (table.dice.length > 1) dice.append(el("span", {class: "total", text: `= ${table.total}`}));
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

async function gameView(id) {
  const main = document.getElementById("main");
  main.replaceChildren(document.getElementById("table").content.cloneNode(true));
  const root = main.querySelector(".game");
  let shown = -1;

  async function refresh(notice) {
    const {ok, data} = await api("GET", `/api/games/${id}`);
    if (!ok) { status(data.error); return; }
    render(data, notice);
  }

  function render(view, notice) {
    shown = view.step;
    root.dataset.step = view.step;
    root.querySelector(".title").textContent = title(view.table);
    renderTable(root, view.table, view.cards, view.seats);
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
    const d = view.decision;
    if (!d) {
      decision.append(el("p", {class: "over", text: title(view.table)}),
        el("button", {class: "primary", text: "Replay this game",
                      onclick: () => openSaved(view.log, decision)}));
      status("the game is over");
      return;
    }
    if (d.human) {
      decision.append(el("p", {class: "question", text: d.question}));
      const buttons = el("div", {class: "options", role: "group", "aria-label": "options"});
      for (const o of d.options) {
        buttons.append(el("button", {class: "option", "data-index": o.index, text: o.label,
                                     onclick: () => answer(view.step, o.index)}));
      }
      decision.append(buttons);
      status(`your decision (${view.table.players[d.player].name})`);
      if (POLL > 0) timer = setTimeout(poll, POLL);
    } else {
      const who = view.table.players[d.player];
      decision.append(el("p", {class: "thinking", text: `${who.name} (${who.agent}) is choosing…`}));
      status(`${who.name} is choosing`);
      timer = setTimeout(() => advance(view.step), PAUSE);
    }
  }

  async function poll() {
    const {ok, data} = await api("GET", `/api/games/${id}`);
    if (ok && data.step !== shown) render(data, "the game moved on (another page answered)");
    else if (POLL > 0) timer = setTimeout(poll, POLL);
  }

  async function answer(step, index) {
    root.querySelectorAll("button.option").forEach(b => { b.disabled = true; });
    const {ok, status: code, data} = await api("POST", `/api/games/${id}/answer`, {step, option: index});
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
  for (const name of logs.logs.slice(0, 20)) {
    saved.append(el("li", {}, el("button", {class: "link", text: name,
      onclick: () => openSaved(name, document.getElementById("replay-problems"))})));
  }
  if (!logs.logs.length) saved.append(el("li", {text: `none yet (saved in ${logs.folder})`}));
  status("");
}

function route() {
  const parts = location.pathname.split("/").filter(Boolean);
  if (parts[0] === "game" && parts[1]) return gameView(parts[1]);
  if (parts[0] === "replay" && parts[1]) return replayView(parts[1]);
  return home();
}

route();
