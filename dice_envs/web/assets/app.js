// The dice-envs serve page: set up a game against the server's agents, then play it by clicking
// the legal moves on the picture or in the list.  Talks only to its own server (dice_envs/web/server.py);
// the game's id and secret token live in this tab's sessionStorage, so a reload resumes the game
// (mid-thinking too) and no other tab can reach it.  The server answers a move at once and plays
// the agents in the background: the page polls for their steps, says who is thinking and for how
// long, and plays every step back (the picture after it, in words) at the pace the person picks.
(function () {
  "use strict";
  const TOKEN_HEADER = "X-Game-Token";
  const STORAGE_KEY = "dice-envs-game";
  const byId = (id) => document.getElementById(id);
  let offers = [];
  let game = null; // {id, token} of this tab's game
  let view = null; // the game as the server last showed it
  let busy = false;
  let received = 0; // steps of the game this page has from the server
  let queue = []; // steps received and not yet shown
  let moveItems = []; // the move list as shown so far: {seat, text, className}
  let stepTimer = null;
  let pollTimer = null;
  const POLL_MS = 250;

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function option(value, text) {
    const node = element("option", "", text);
    node.value = String(value);
    return node;
  }

  // ------------------------------------------------------------ server
  async function request(method, path, body) {
    const init = { method: method, headers: {} };
    if (game) init.headers[TOKEN_HEADER] = game.token;
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (ignored) {
      throw new Error("The server does not answer: is dice-envs serve still running? (reload the page once it is)");
    }
    if (!response.ok) {
      let message = response.status + " " + response.statusText;
      try {
        message = (await response.json()).error || message;
      } catch (ignored) {
        // not JSON: keep the status line
      }
      const error = new Error(message);
      error.status = response.status;
      throw error;
    }
    return response;
  }

  // One request at a time from this page; its error, if any, shown above everything.
  async function run(task) {
    if (busy) return;
    busy = true;
    document.body.classList.add("busy");
    byId("error").hidden = true;
    try {
      await task();
    } catch (error) {
      byId("error").textContent = error.message;
      byId("error").hidden = false;
    } finally {
      busy = false;
      document.body.classList.remove("busy");
    }
  }

  // ------------------------------------------------------------- setup
  function selectedOffer() {
    return offers.find((offer) => offer.env === byId("game").value);
  }

  function agentsFor(offer, players) {
    return offer.agents.filter((agent) => agent.players.includes(players)).map((agent) => agent.label);
  }

  function fillPlayers() {
    const offer = selectedOffer();
    const counts = [];
    for (let n = offer.min_players; n <= offer.max_players; n++) {
      if (agentsFor(offer, n).length) counts.push(option(n, String(n)));
    }
    byId("players").replaceChildren(...counts);
    fillSeats();
  }

  function fillSeats() {
    const offer = selectedOffer();
    const players = Number(byId("players").value);
    const seats = [];
    for (let seat = 0; seat < players; seat++) seats.push(option(seat, "player_" + seat));
    byId("seat").replaceChildren(...seats);
    fillOptions(offer, players);
    fillOpponents(offer, players);
  }

  // Each opponent's choice starts on the strongest agent at this count (the catalogue's order),
  // with a line saying what the chosen agent is.
  function fillOpponents(offer, players) {
    const labels = agentsFor(offer, players);
    const strongest = offer.strongest.find((label) => labels.includes(label));
    const rows = [element("legend", "", "Opponents")];
    for (let k = 1; k < players; k++) {
      const label = element("label", "", "Opponent " + k + " ");
      const select = element("select", "opponent");
      select.append(...labels.map((name) => option(name, name)));
      select.value = strongest;
      const about = element("p", "about");
      const describe = () => { about.textContent = offer.agents.find((agent) => agent.label === select.value).description; };
      select.addEventListener("change", describe);
      describe();
      label.append(select);
      rows.push(label, about);
    }
    byId("opponents").replaceChildren(...rows);
  }

  // The game's options: a whole number in its range, or one of its choices (those the engine
  // takes at this player count); a value already chosen stays where it still may.
  function fillOptions(offer, players) {
    const chosen = optionValues();
    const rows = [element("legend", "", "Options")];
    for (const spec of offer.options) {
      const label = element("label", "", spec.label + " ");
      let input;
      if (spec.choices) {
        input = element("select");
        spec.choices.forEach((choice, index) => {
          const node = option(index, choice.text);
          node.disabled = !choice.players.includes(players);
          input.append(node);
        });
        const keep = spec.choices.findIndex((choice) => choice.value === (spec.name in chosen ? chosen[spec.name] : spec.default));
        const allowed = (index) => index >= 0 && spec.choices[index].players.includes(players);
        input.value = String(allowed(keep) ? keep : spec.choices.findIndex((choice) => choice.players.includes(players)));
      } else {
        input = element("input");
        input.type = "number";
        input.required = true;
        input.min = String(spec.low);
        input.max = String(spec.high);
        input.step = "1";
        input.value = String(spec.name in chosen ? chosen[spec.name] : spec.default);
      }
      input.className = "option";
      input.dataset.name = spec.name;
      label.append(input);
      rows.push(label);
    }
    byId("options").replaceChildren(...rows);
    byId("options").hidden = !offer.options.length;
  }

  // The options as the form holds them, by name, as the server takes them.
  function optionValues() {
    const offer = selectedOffer();
    const values = {};
    for (const input of document.querySelectorAll("#options .option")) {
      const spec = offer && offer.options.find((candidate) => candidate.name === input.dataset.name);
      if (!spec) continue; // a form of the game chosen before
      values[spec.name] = spec.choices ? spec.choices[Number(input.value)].value : Number(input.value);
    }
    return values;
  }

  function showRulesLinks(env) {
    for (const id of ["rules", "table-rules"]) byId(id).href = "rules/" + encodeURIComponent(env);
  }

  function chooseGame() {
    byId("options").replaceChildren(); // the last game's options are not this one's
    showRulesLinks(byId("game").value);
    fillPlayers();
  }

  async function loadCatalogue() {
    offers = (await (await request("GET", "api/catalogue")).json()).games;
    byId("game").replaceChildren(...offers.map((offer) => option(offer.env, offer.title + " (" + offer.env + ")")));
    chooseGame();
  }

  function startGame(event) {
    event.preventDefault();
    run(async () => {
      game = null;
      const body = {
        game: byId("game").value,
        seat: Number(byId("seat").value),
        opponents: Array.from(document.querySelectorAll("#opponents select"), (select) => select.value),
        options: optionValues(),
      };
      const shown = await (await request("POST", "api/games", body)).json();
      game = { id: shown.id, token: shown.token };
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify(game));
      resetPlayback([]);
      show(shown);
    });
  }

  function leaveGame() {
    if (view && !view.over && !window.confirm("Drop this game? It cannot be resumed.")) return;
    run(async () => {
      resetPlayback([]);
      if (game) await request("DELETE", "api/games/" + game.id).catch(() => undefined); // gone already: fine
      game = null;
      view = null;
      sessionStorage.removeItem(STORAGE_KEY);
      byId("table").hidden = true;
      byId("setup").hidden = false;
      byId("subtitle").textContent = "pick a game, your seat and your opponents";
    });
  }

  // -------------------------------------------------------------- play
  function play(action) {
    if (busy || !settled()) {
      notice(view && view.thinking ? view.thinking.player + " is still thinking: your move waits for your turn" : "Wait: the last moves are still being shown (Skip shows the end)");
      return;
    }
    if (!view.legal.some((move) => move.action === action)) return;
    run(async () => {
      try {
        show(await (await request("POST", "api/games/" + game.id + "/move", { action: action, moves: view.moves.length })).json());
      } catch (error) {
        if (error.status !== 409 && error.status !== 400) throw error;
        await refresh(); // another tab of this game moved on: show where it stands now
        notice("This game moved on in another tab: here is where it stands now.");
      }
    });
  }

  async function refresh() {
    received = -1;
    queue = [];
    show(await (await request("GET", "api/games/" + game.id)).json());
  }

  // A tab shown again (a duplicated tab, one left behind) catches up with moves made elsewhere.
  function refreshIfStale() {
    if (document.hidden || !game || busy || !settled()) return;
    run(async () => {
      const shown = await (await request("GET", "api/games/" + game.id)).json();
      if (shown.moves.length !== view.moves.length) {
        received = -1;
        show(shown);
        notice("This game moved on in another tab: here is where it stands now.");
      }
    });
  }

  function notice(text) {
    byId("notice").textContent = text;
    byId("notice").hidden = !text;
  }

  // ---------------------------------------------------------- playback
  // Between the person's moves the page shows each step the server reports, one per pace, then
  // the position that waits on the person (or the end).
  function settled() {
    return view && queue.length === 0 && !thinking();
  }

  function thinking() {
    return view && !view.over && (view.thinking !== null || view.to_move !== view.seat) && !view.failure;
  }

  function resetPlayback(moves) {
    clearTimeout(stepTimer);
    clearTimeout(pollTimer);
    stepTimer = pollTimer = null;
    queue = [];
    received = 0;
    moveItems = moves;
  }

  function pace() {
    return Number(byId("pace").value);
  }

  function advance() {
    stepTimer = null;
    if (queue.length) {
      showStep(queue.shift());
      if (pace() === 0) return advance();
      stepTimer = setTimeout(advance, pace());
    } else if (thinking()) {
      showThinking();
    } else {
      showSettled();
    }
  }

  function skip() {
    if (!queue.length) return;
    clearTimeout(stepTimer);
    while (queue.length > 1) addMove(queue.shift());
    advance();
  }

  function addMove(step) {
    const text = step.seat === null ? step.said : step.player + ": " + step.label + (step.said ? " (" + step.said + ")" : "");
    moveItems.push({ seat: step.seat, text: text, className: step.seat === null ? "scoring" : step.seat === view.seat ? "yours" : "" });
  }

  function showStep(step) {
    addMove(step);
    document.body.classList.add("waiting");
    showThinkingLine();
    byId("board").innerHTML = step.picture; // the server's own SVG, nothing a user typed
    fitBoard();
    byId("step").textContent = step.seat === null ? step.said : step.player + ": " + step.label + (step.said ? ". " + step.said : "");
    byId("step").hidden = false;
    byId("turn").hidden = true;
    showScores(step.scores, step.seat);
    showMoves();
  }

  function showThinking() {
    document.body.classList.add("waiting");
    byId("turn").hidden = true;
    byId("step").hidden = false;
    showThinkingLine();
    if (!pollTimer) pollTimer = setTimeout(poll, POLL_MS);
  }

  // Who thinks and for how long, as of the server's last answer (polled every POLL_MS).
  function showThinkingLine() {
    const line = byId("thinking");
    line.hidden = !thinking();
    if (line.hidden) return;
    const who = view.thinking ? view.thinking.player : "player_" + view.to_move;
    line.textContent = who + " is thinking… " + (view.thinking ? view.thinking.seconds : 0).toFixed(1) + " s";
  }

  async function poll() {
    const polled = game;
    try {
      const shown = await (await request("GET", "api/games/" + polled.id + "?after=" + received)).json();
      pollTimer = null;
      if (game !== polled) return; // the person left this game meanwhile
      show(shown);
    } catch (error) {
      byId("error").textContent = error.message;
      byId("error").hidden = false;
      pollTimer = setTimeout(() => { pollTimer = null; poll(); }, 4 * POLL_MS);
      return;
    }
    byId("error").hidden = true;
  }

  function showSettled() {
    document.body.classList.remove("waiting");
    byId("thinking").hidden = true;
    notice("");
    showBoard();
    showTurn();
    showScores(view.scores, view.to_move);
    showMoves();
  }

  function who(seat) {
    return "player_" + seat + " (" + view.players[seat] + ")";
  }

  function dot(seat) {
    const node = element("span", "seat-dot");
    node.style.background = view.colours[seat];
    return node;
  }

  function showBoard() {
    const board = byId("board");
    board.innerHTML = view.picture; // the server's own SVG (dice_envs/web/sessions.py), nothing a user typed
    fitBoard();
    const labels = new Map(view.legal.map((move) => [String(move.action), move.label]));
    for (const shape of board.querySelectorAll("[data-action]")) {
      const label = labels.get(shape.dataset.action);
      if (label === undefined) continue;
      shape.classList.add("legal");
      shape.setAttribute("tabindex", "0");
      shape.setAttribute("role", "button");
      shape.setAttribute("aria-label", label);
      const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
      title.textContent = label;
      shape.append(title);
    }
  }

  // The picture's shape and own width, for app.css to fit it to the window or show it at full size.
  function fitBoard() {
    const svg = byId("board").querySelector("svg");
    const box = svg && svg.viewBox.baseVal;
    if (!box || !box.height) return;
    byId("board").style.setProperty("--aspect", String(box.width / box.height));
    byId("board").style.setProperty("--natural-width", box.width + "px");
  }

  // Full size, to scroll across on a small screen, or fitted to it.
  function toggleZoom() {
    const zoomed = byId("board").classList.toggle("full-size");
    byId("zoom").setAttribute("aria-pressed", String(zoomed));
    byId("zoom").textContent = zoomed ? "Fit to the screen" : "Full size";
  }

  function showTurn() {
    byId("turn").hidden = view.over; // between requests the game waits on this player, or is over
    byId("actions").replaceChildren(
      ...view.legal.map((move) => {
        const button = element("button", "action", move.label);
        button.type = "button";
        button.dataset.action = String(move.action);
        return button;
      })
    );
    byId("game-over").hidden = !view.over && !view.failure;
    byId("game-over").textContent = view.over ? "Game over: " + view.result : view.failure ? "The agents stopped: " + view.failure : "";
    byId("download-log").disabled = !view.over;
    byId("download-replay").disabled = !view.over;
  }

  function showScores(scores, active) {
    byId("scores").replaceChildren(
      ...scores.map((score, seat) => {
        const row = element("tr", seat === active ? "to-act" : "");
        const name = element("td");
        name.append(dot(seat), document.createTextNode(who(seat)));
        row.append(name, element("td", "score", String(score)));
        return row;
      })
    );
  }

  function showMoves() {
    const list = byId("moves");
    list.replaceChildren(
      ...moveItems.map((move) => {
        const item = element("li", move.className);
        if (move.seat !== null) item.append(dot(move.seat));
        item.append(document.createTextNode(move.text));
        return item;
      })
    );
    list.scrollTop = list.scrollHeight;
  }

  // Every answer on the game: its new steps join the queue, then the page moves on.
  function show(shown) {
    view = shown;
    if (shown.steps_from !== received) {
      // a reload (no steps asked for) or a gap: start from the moves so far, as the server lists them
      moveItems = view.moves.map((move) => ({ seat: move.seat, text: who(move.seat) + ": " + move.label, className: move.seat === view.seat ? "yours" : "" }));
      queue = [];
    }
    queue.push(...shown.steps);
    received = shown.steps_from + shown.steps.length;
    const offer = offers.find((candidate) => candidate.env === view.env);
    byId("subtitle").textContent = (offer ? offer.title : view.env) + ": you are player_" + view.seat;
    showRulesLinks(view.env);
    byId("setup").hidden = true;
    byId("table").hidden = false;
    if (!stepTimer) advance();
  }

  // ---------------------------------------------------------- downloads
  function download(kind, extension) {
    run(async () => {
      const blob = await (await request("GET", "api/games/" + game.id + "/" + kind)).blob();
      const link = element("a");
      link.href = URL.createObjectURL(blob);
      link.download = view.env + "-" + game.id.slice(0, 8) + extension;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    });
  }

  // ------------------------------------------------------------- start
  function clickedAction(event) {
    const target = event.target.closest("[data-action]");
    return target && (target.classList.contains("legal") || target.classList.contains("action")) ? Number(target.dataset.action) : null;
  }

  function wire() {
    byId("game").addEventListener("change", chooseGame);
    byId("players").addEventListener("change", fillSeats);
    byId("setup").addEventListener("submit", startGame);
    byId("new-game").addEventListener("click", leaveGame);
    byId("skip").addEventListener("click", skip);
    byId("zoom").addEventListener("click", toggleZoom);
    document.addEventListener("visibilitychange", refreshIfStale);
    byId("pace").addEventListener("change", () => {
      if (stepTimer) {
        clearTimeout(stepTimer); // the new pace from the next step on
        advance();
      }
    });
    byId("download-log").addEventListener("click", () => download("log", ".json"));
    byId("download-replay").addEventListener("click", () => download("replay", ".html"));
    for (const id of ["board", "actions"]) {
      byId(id).addEventListener("click", (event) => {
        const action = clickedAction(event);
        if (action !== null) play(action);
      });
    }
    byId("board").addEventListener("keydown", (event) => {
      const action = clickedAction(event);
      if (action !== null && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        play(action);
      }
    });
  }

  wire();
  run(async () => {
    await loadCatalogue();
    const saved = sessionStorage.getItem(STORAGE_KEY);
    if (!saved) return;
    game = JSON.parse(saved);
    try {
      await refresh(); // the moves so far come as the list, not as steps
    } catch (error) {
      if (error.status !== 404 && error.status !== 403) throw error; // the server is busy or away: keep the game
      game = null; // the server was restarted or dropped the game: set up a new one
      sessionStorage.removeItem(STORAGE_KEY);
    }
  });
})();
