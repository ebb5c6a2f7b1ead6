// The replay page: steps through the frames that dice_envs/web/replay.py embedded as JSON in #replay-data.
// Frame i is position i, the one after move i (frame 0: the start); its panel shows move i, who made
// it and what, so "Move 31" stands beside "position 31" and the picture shows what the move did.
// Plain DOM, no network: the log download is built in memory as a blob.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const last = data.frames.length - 1;
  const byId = (id) => document.getElementById(id);
  const slider = byId("slider");
  const playButton = byId("play");
  const speed = byId("speed");
  let current = -1;
  let timer = null;

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // A player by its short label (a model's file stem: a full model path wraps each move over lines),
  // with the full spec in the tooltip.
  function who(seat) {
    const player = data.players[seat];
    const node = element("span", "who", player.name + " (" + player.label + ")");
    node.title = player.spec;
    return node;
  }

  function dot(seat) {
    const node = element("span", "seat-dot");
    node.style.background = data.players[seat].colour;
    return node;
  }

  function percent(p) {
    return (100 * p).toFixed(p >= 0.995 || p < 0.001 ? 0 : 1) + "%";
  }

  function bars(move) {
    const list = element("ul", "bars");
    list.setAttribute("aria-label", "the policy's probabilities over the legal actions");
    for (const [label, p, chosen] of move.bars) {
      const row = element("li", chosen ? "chosen" : "");
      row.title = label + ": " + percent(p);
      row.append(element("span", "label", label));
      const track = element("span", "track");
      const fill = element("span", "fill");
      fill.style.display = "block";
      fill.style.width = (100 * p).toFixed(1) + "%";
      track.append(fill);
      row.append(track, element("span", "p", percent(p)));
      list.append(row);
    }
    if (move.rest) {
      list.append(element("li", "muted", "and " + move.rest[0] + " more legal actions, " + percent(move.rest[1]) + " together"));
    }
    return list;
  }

  function showDecision(index) {
    const panel = byId("decision");
    panel.replaceChildren();
    panel.classList.toggle("result", index === last);
    if (index === last) {
      panel.append(element("h2", "", data.result.finished ? "Game over" : "Stopped"), element("p", "", data.result.text));
    }
    if (index === 0) {
      panel.append(element("h2", "", "Start"), element("p", "muted", data.moves.length + " moves follow: Next (Right) plays the first."));
      return;
    }
    const move = data.moves[index - 1];
    const heading = element(index === last ? "h3" : "h2", "", "Move " + index + " of " + data.moves.length);
    const line = element("p", "");
    line.append(dot(move.seat), who(move.seat), document.createTextNode(" chose "), element("strong", "", move.label));
    panel.append(heading, line);
    // What the move set off, as the serve page's steps say it: a bust, a round's scoring.
    if (move.said) panel.append(element("p", "said", move.said));
    if (move.scored) panel.append(element("p", "scored", move.scored));
    if (move.bars) panel.append(bars(move));
  }

  function showScores(frame) {
    const rows = data.players.map((player) => {
      const row = element("tr", player.seat === frame.to_act ? "to-act" : "");
      const name = element("td");
      name.append(dot(player.seat), who(player.seat));
      row.append(name, element("td", "score", String(frame.scores[player.seat])));
      return row;
    });
    byId("scores").replaceChildren(...rows);
  }

  // Each frame's picture as line numbers in data.svg_lines, decoded once from its edit of the
  // previous picture (dice_envs/web/replay.py shared_lines): pairs [start, count], start >= 0 copying the
  // previous picture's lines, start < 0 taking the table's lines from -start - 1.
  const pictures = [];
  data.frames.reduce((previous, frame) => {
    const lines = [];
    for (let pair = 0; pair < frame.picture.length; pair += 2) {
      const start = frame.picture[pair];
      const count = frame.picture[pair + 1];
      for (let k = 0; k < count; k += 1) lines.push(start >= 0 ? previous[start + k] : -start - 1 + k);
    }
    pictures.push(lines);
    return lines;
  }, []);

  function show(index) {
    index = Math.max(0, Math.min(last, index));
    const frame = data.frames[index];
    byId("board").innerHTML = pictures[index].map((line) => data.svg_lines[line]).join("\n");
    showDecision(index);
    showScores(frame);
    // Move i is item i - 1 of the list; at the start the list shows its top.
    const moves = byId("moves");
    if (current > 0) moves.children[current - 1].classList.remove("current");
    if (index > 0) {
      moves.children[index - 1].classList.add("current");
      moves.children[index - 1].scrollIntoView({ block: "nearest" });
    } else {
      moves.scrollTop = 0;
    }
    slider.value = String(index);
    byId("step").textContent = "position " + index + " of " + last;
    byId("first").disabled = byId("previous").disabled = index === 0;
    byId("next").disabled = byId("last").disabled = index === last;
    current = index;
    if (index === last) pause();
  }

  function pause() {
    clearInterval(timer);
    timer = null;
    playButton.textContent = "Play";
  }

  function togglePlay() {
    if (timer !== null) {
      pause();
      return;
    }
    if (current === last) show(0);
    playButton.textContent = "Pause";
    timer = setInterval(() => show(current + 1), Number(speed.value));
  }

  function changeSpeed() {
    if (timer === null) return;
    clearInterval(timer);
    timer = setInterval(() => show(current + 1), Number(speed.value));
  }

  function download() {
    const blob = new Blob([JSON.stringify(data.log, null, 1) + "\n"], { type: "application/json" });
    const link = element("a");
    link.href = URL.createObjectURL(blob);
    link.download = data.log_name;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }

  const KEYS = {
    ArrowLeft: () => show(current - 1),
    ArrowRight: () => show(current + 1),
    Home: () => show(0),
    End: () => show(last),
    " ": togglePlay,
  };

  function onKey(event) {
    const action = KEYS[event.key];
    if (!action || event.altKey || event.ctrlKey || event.metaKey) return;
    // The slider moves itself on arrows and Home/End (its input event shows the frame); a focused
    // button clicks itself on Space.
    if (event.target === slider && event.key !== " ") return;
    if (event.target.tagName === "BUTTON" && event.key === " ") return;
    event.preventDefault();
    action();
  }

  function build() {
    byId("subtitle").textContent = [
      "seed " + data.log.seed,
      ...data.players.map((player) => player.name + ": " + player.label),
      data.view,
    ].join(" \u00b7 ");
    const items = data.moves.map((move, index) => {
      const item = element("li");
      item.append(dot(move.seat), who(move.seat), document.createTextNode(": " + move.label + (move.said ? " (" + move.said + ")" : "")));
      if (move.scored) item.append(element("div", "scored", move.scored));
      item.addEventListener("click", () => show(index + 1));
      return item;
    });
    byId("moves").replaceChildren(...items);
    slider.max = String(last);
    slider.addEventListener("input", () => show(Number(slider.value)));
    byId("first").addEventListener("click", () => show(0));
    byId("previous").addEventListener("click", () => show(current - 1));
    byId("next").addEventListener("click", () => show(current + 1));
    byId("last").addEventListener("click", () => show(last));
    playButton.addEventListener("click", togglePlay);
    speed.addEventListener("change", changeSpeed);
    byId("download").addEventListener("click", download);
    document.addEventListener("keydown", onKey);
    show(0);
  }

  build();
})();
