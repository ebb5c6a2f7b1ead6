// The dice-envs serve page: set up a game against the server's agents, then play it by clicking
// the legal moves on the picture or in the list.  Talks only to its own server (dice_envs/web/server.py);
// the game's id and secret token live in this tab's sessionStorage, so a reload resumes the game
// and no other tab can reach it.
(function () {
  "use strict";
  const TOKEN_HEADER = "X-Game-Token";
  const STORAGE_KEY = "dice-envs-game";
  const byId = (id) => document.getElementById(id);
  let offers = [];
  let game = null; // {id, token} of this tab's game
  let view = null; // the game as the server last showed it
  let busy = false;

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
    const response = await fetch(path, init);
    if (!response.ok) {
      let message = response.status + " " + response.statusText;
      try {
        message = (await response.json()).error || message;
      } catch (ignored) {
        // not JSON: keep the status line
      }
      throw new Error(message);
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
    const labels = agentsFor(offer, players);
    const selects = [element("legend", "", "Opponents")];
    for (let k = 1; k < players; k++) {
      const label = element("label", "", "Opponent " + k + " ");
      const select = element("select", "opponent");
      select.append(...labels.map((name) => option(name, name)));
      label.append(select);
      selects.push(label);
    }
    byId("opponents").replaceChildren(...selects);
  }

  async function loadCatalogue() {
    offers = (await (await request("GET", "api/catalogue")).json()).games;
    byId("game").replaceChildren(...offers.map((offer) => option(offer.env, offer.title + " (" + offer.env + ")")));
    fillPlayers();
  }

  function startGame(event) {
    event.preventDefault();
    run(async () => {
      game = null;
      const body = {
        game: byId("game").value,
        seat: Number(byId("seat").value),
        opponents: Array.from(document.querySelectorAll("#opponents select"), (select) => select.value),
      };
      const shown = await (await request("POST", "api/games", body)).json();
      game = { id: shown.id, token: shown.token };
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify(game));
      show(shown);
    });
  }

  function leaveGame() {
    run(async () => {
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
    if (!view || !view.legal.some((move) => move.action === action)) return;
    run(async () => show(await (await request("POST", "api/games/" + game.id + "/move", { action: action })).json()));
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
    byId("game-over").hidden = !view.over;
    byId("game-over").textContent = view.over ? "Game over: " + view.result : "";
    byId("download-log").disabled = !view.over;
    byId("download-replay").disabled = !view.over;
  }

  function showScores() {
    byId("scores").replaceChildren(
      ...view.scores.map((score, seat) => {
        const row = element("tr", seat === view.to_move ? "to-act" : "");
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
      ...view.moves.map((move) => {
        const item = element("li", move.seat === view.seat ? "yours" : "");
        item.append(dot(move.seat), document.createTextNode(who(move.seat) + ": " + move.label));
        return item;
      })
    );
    list.scrollTop = list.scrollHeight;
  }

  function show(shown) {
    view = shown;
    const offer = offers.find((candidate) => candidate.env === view.env);
    byId("subtitle").textContent = (offer ? offer.title : view.env) + ": you are player_" + view.seat;
    byId("setup").hidden = true;
    byId("table").hidden = false;
    showBoard();
    showTurn();
    showScores();
    showMoves();
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
    byId("game").addEventListener("change", fillPlayers);
    byId("players").addEventListener("change", fillSeats);
    byId("setup").addEventListener("submit", startGame);
    byId("new-game").addEventListener("click", leaveGame);
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
      show(await (await request("GET", "api/games/" + game.id)).json());
    } catch (error) {
      game = null; // the server was restarted or dropped the game: set up a new one
      sessionStorage.removeItem(STORAGE_KEY);
    }
  });
})();
