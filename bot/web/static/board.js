// The live board: shows the state the server sends for this page's viewer, lights the places a
// choice can be made, and sends a tap back as the choice's signed payload. The page holds nothing
// the server did not send it, so it holds no one else's secrets. No framework, no build step, and
// no inline styles: positions are set through the CSSOM (a strict Content-Security-Policy allows it).
//
// Phone first: the board fills the width at the top and zooms and pans (pinch, double tap, wheel,
// drag); the decision (prompt and choices) sits in a bar at the bottom; scores, log and secret
// open over the board from tabs. After every state the board is framed on the step's lit places.

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const hash = new URLSearchParams(location.hash.slice(1));
const SVG = "http://www.w3.org/2000/svg";
const TARGET = 24;          // the smallest target, in CSS px (WCAG 2.2 target size)
const ZOOM_IN = 1.75;       // how far past the picture's width a phone frames a step's places (a double tap's 2x still zooms in)

// The link's pass comes in the address's fragment (older links: the query); the page keeps it for
// this tab only and takes it out of the address at once (and so out of the history). What goes in
// the addresses of the socket and the pictures is a short-lived page pass traded for it.
const KEPT = "boardchat-pass";
let pass = null;
let pagePass = null;
let pagePassUntil = 0;     // when to trade the link's pass again (half the page pass's life)
let socket = null;
let version = null;        // the version of the state shown (sent back on reconnecting)
let state = null;
let openGroup = null;      // the submenu open on the page (the server never hears of it)
let reviewAt = null;       // the move shown while stepping through a finished game (null: now)
let waitingReply = false;
let retry = 0;
let connected = false;
let opened = false;        // whether a socket ever opened (one refused before opening says why)
let tab = null;            // the panel open over the board on a phone (null: none)
let shownPicture = null;   // the name of the picture on the stage
let chosenPicture = null;  // the picture the viewer switched to themselves
let litKey = "";           // the lit places framed last (a new set frames the board again)

const layout = () => (window.innerWidth < 700 ? "portrait" : "landscape");
const text = (key, fallback) => (state && state.texts && state.texts[key]) || fallback || "";

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "onclick") node.addEventListener("click", value);
    else if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

function notice(message, bad = false) {
  const box = $("notice");
  box.textContent = message || "";
  box.hidden = !message;
  box.classList.toggle("bad", bad);
  refit();
}

function refused(message) {
  document.body.replaceChildren(el("main", { class: "refused", role: "alert" }, el("p", {}, message)));
}

// ---- Telegram Mini App: initData for a pass ------------------------------------------------
async function telegramPass() {
  const webApp = window.Telegram && window.Telegram.WebApp;
  const initData = (webApp && webApp.initData) || hash.get("tgWebAppData");
  if (!initData) return null;
  if (webApp && webApp.ready) webApp.ready();
  if (webApp && webApp.expand) webApp.expand();
  const response = await fetch(new URL("api/telegram", location.href), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ init_data: initData, game: params.get("g") }),
  });
  const body = await response.json();
  if (!response.ok) { refused(body.text); return null; }
  return body.pass;
}

// ---- passes out of the address ------------------------------------------------------------
function forgetAddress() {
  const query = new URLSearchParams(location.search);
  query.delete("t");
  const search = query.toString();
  history.replaceState(null, "", location.pathname + (search ? "?" + search : ""));
}

function kept(value) {
  // sessionStorage may be closed to a framed page (a Mini App in Telegram Web): then no reload.
  try {
    if (value === undefined) return sessionStorage.getItem(KEPT);
    sessionStorage.setItem(KEPT, value);
  } catch (error) { /* nothing kept */ }
  return null;
}

// The trade open.js asked for as the page's head was read, if it is the one this page would ask
// for now (its link's pass and layout, nothing shown yet); taken once.
function opening() {
  const early = window.boardOpening;
  window.boardOpening = null;
  return early && !state && early.pass === pass && early.layout === layout() ? early.answer : null;
}

async function freshPagePass() {
  if (pagePass && Date.now() < pagePassUntil) return true;
  const response = await (opening() || fetch(new URL("api/pass", location.href), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    // A page with nothing shown yet asks for its first state with the pass: its board is drawn
    // before the socket opens (which then says this version and is sent nothing again).
    body: JSON.stringify(state ? { pass } : { pass, layout: layout() }),
  }));
  const body = await response.json().catch(() => ({}));
  if (!response.ok) { refused(body.text || ""); return false; }
  pagePass = body.pass;
  pagePassUntil = Date.now() + body.seconds * 500;
  if (body.first && !state) heard(body.first);
  return true;
}

// ---- the connection ------------------------------------------------------------------------
async function connect() {
  try {
    if (!(await freshPagePass())) return;
  } catch (error) {      // no answer (offline): try again
    notice(text("reconnecting", "…"), true);
    setTimeout(connect, 2000);
    return;
  }
  const url = new URL("live?t=" + encodeURIComponent(pagePass), location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(url);
  socket.addEventListener("open", () => {
    retry = 0;
    connected = true;
    opened = true;
    notice("");
    // Back: the choices come back on (a pause switched them off, and a tap sent just before the
    // connection dropped may never be answered; if it did land, the new state follows the hello).
    if (state) { waitingReply = false; render(); }
    socket.send(JSON.stringify({ type: "hello", since: reviewAt === null ? version : null, layout: layout(), at: reviewAt }));
    for (const message of unsent.splice(0)) socket.send(JSON.stringify(message));
  });
  socket.addEventListener("message", (event) => heard(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    if (!opened || !state) { refusedOnOpen(); return; }
    connected = false;
    paused();
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, Math.min(250 * 2 ** retry, 5000));
  });
}

function paused() {
  // Nobody serves the board now (the terminal quit, the bot stopped, the network went): say so,
  // and switch the choices off until it is back.
  waitingReply = false;
  notice(retry >= 2 ? text("paused") : text("reconnecting", "…"), true);
  const turn = $("turn");
  turn.className = "paused";
  turn.textContent = text("paused");
  turn.title = turn.textContent;
  for (const button of document.querySelectorAll("[data-act], [data-open]")) button.disabled = true;
  refit();
}

async function refusedOnOpen() {
  // The server refused the page's pass before the connection opened: say why, in its words.
  const response = await fetch(new URL("live?t=" + encodeURIComponent(pagePass), location.href)).catch(() => null);
  const body = response ? await response.json().catch(() => ({})) : {};
  if (body.text) refused(body.text);
  else setTimeout(connect, 1000);
}

// The first state comes with the pass, before the socket is open: a tap made then waits for it
// (a few at most), sent right after the hello, instead of being lost.
const unsent = [];
function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  else if (unsent.length < 4) unsent.push(message);
}
window.boardSend = send;          // the page's one way to the server (assistive tools and tests)

// A socket's first state comes whole; each later one as what changed since the last one sent on
// that socket (bot/web/frames.py): the fields sent anew ("set"), the ones kept ("same"), the
// pictures (a kept one by its name) and the log (the held one less its first lines, then the new
// ones). A field in none of them is gone. Parts kept are the very objects held, so a scene that
// did not change is known by identity and not drawn again.
function merged(held, frame) {
  const next = {};
  for (const key of frame.same) next[key] = held[key];
  Object.assign(next, frame.set);
  if (frame.pictures) {
    next.pictures = frame.pictures.map((picture) => (typeof picture === "string"
      ? held.pictures.find((kept) => kept.name === picture) : picture));
  }
  if (frame.log) next.log = held.log.slice(frame.log.drop).concat(frame.log.tail);
  return next;
}

function heard(message) {
  if (message.type === "state" || message.type === "delta") {
    if (message.type === "delta" && !state) return;    // never sent so: a socket's first state is whole
    state = message.type === "delta" ? merged(state, message) : message.state;
    version = message.version;
    window.boardVersion = version;  // this page's own count of what it was shown (not in the state)
    window.boardState = state;      // what the page shows, for assistive tools and tests
    waitingReply = false;
    if (!(state.choices && state.choices.groups && openGroup in state.choices.groups)) openGroup = null;
    render();
  } else if (message.type === "reply") {
    waitingReply = false;
    notice(message.ok ? "" : message.text, !message.ok);
    if (!message.ok) render();
  } else if (message.type === "error") {
    waitingReply = false;
    notice(message.text, true);
    render();
  }
}

function act(payload) {
  if (waitingReply || !connected) return;
  waitingReply = true;
  openGroup = null;
  for (const button of document.querySelectorAll("[data-act]")) button.disabled = true;
  send({ type: "act", payload });
}

// ---- drawing the state -----------------------------------------------------------------------
function render() {
  document.documentElement.lang = state.language || "en";
  $("board").setAttribute("aria-busy", "false");
  document.title = state.game.title;
  $("title").textContent = state.game.title;
  $("chat").textContent = state.game.chat || "";
  const turn = $("turn");
  turn.className = state.turn ? state.turn.kind : "";
  turn.textContent = state.turn ? state.turn.text : "";
  turn.title = turn.textContent;     // a phone shows the line's start alone (one line, never the board's room)
  $("players").setAttribute("aria-label", text("players"));
  $("players").replaceChildren(...state.players.map((p) => el("li", {
    class: [p.acting ? "acting" : "", p.you ? "you" : ""].join(" ").trim() || null,
  }, p.name + (p.you ? " (" + text("you") + ")" : ""))));
  $("lines").replaceChildren(...(state.lines || []).map((line) => el("p", {}, ...said(line))));
  $("prompt").replaceChildren(...said(state.prompt));
  $("stage").setAttribute("aria-label", text("board"));
  $("bar").setAttribute("aria-label", text("decision"));
  $("secret").querySelector("p").replaceChildren(...said(state.secret));
  const final = $("final");
  final.hidden = !state.final;
  final.replaceChildren(...(state.final || []).map((line) => el("p", {}, ...said(line))));
  $("log").replaceChildren(...(state.log || []).map((line) => el("li", {}, ...said(line))));
  renderTabs();
  renderMenu();
  renderReview();
  renderPictures();
}

// ---- colours by chip and name ------------------------------------------------------------------
// The game's texts write a colour with an emoji; the page shows its chip and its name instead (an
// emoji alone says nothing without an emoji font, or to someone who cannot tell the colours apart).
function chip(colour, named) {
  const node = el("span", { class: "chip" }, named ? colour.name : null);
  node.style.setProperty("--chip", colour.rgb);
  return node;
}

function said(line) {
  const colours = (state && state.colours) || {};
  const emojis = Object.keys(colours);
  if (!emojis.length || !line) return [line || ""];
  const parts = [];
  let rest = String(line);
  for (;;) {
    let at = -1, found = null;
    for (const emoji of emojis) {
      const index = rest.indexOf(emoji);
      if (index >= 0 && (at < 0 || index < at)) { at = index; found = emoji; }
    }
    if (found === null) break;
    if (at > 0) parts.push(rest.slice(0, at));
    rest = rest.slice(at + found.length).replace(/^\uFE0F/, "");
    const colour = colours[found];
    // "🟥 red": the name follows already, so the chip goes without it.
    parts.push(chip(colour, !rest.trimStart().toLowerCase().startsWith(colour.name.toLowerCase())));
  }
  if (rest) parts.push(rest);
  return parts;
}

function plain(line) {
  // A text for a screen reader or a tooltip: each colour emoji as its name.
  let out = String(line || "");
  for (const [emoji, colour] of Object.entries((state && state.colours) || {})) out = out.split(emoji).join(colour.name);
  return out;
}

// ---- the panels: tabs on a phone, beside the board on a wide screen --------------------------
function panes() {
  const list = [["game", text("tab_game")], ["log", text("tab_log")]];
  if (state.secret) list.push(["secret", text("tab_secret")]);
  return list;
}

function renderTabs() {
  const list = panes();
  if (tab && !list.some(([key]) => key === tab)) tab = null;
  $("tabs").setAttribute("aria-label", text("players"));
  $("tabs").replaceChildren(...list.map(([key, label]) => el("button", {
    type: "button", "data-tab": key, "aria-pressed": String(tab === key),
    onclick: () => { tab = tab === key ? null : key; renderTabs(); },
  }, label)));
  const wide = window.matchMedia("(min-width: 900px)").matches;
  const open = tab || (wide ? "game" : null);
  $("side").hidden = !wide && !tab;
  for (const [key] of [["game"], ["log"], ["secret"]]) $("pane-" + key).hidden = wide ? (key === "secret" && !state.secret) : key !== open;
  const title = list.find(([key]) => key === open);
  $("sheet-title").textContent = wide ? "" : (title ? title[1] : "");
  $("close").textContent = "✕ " + text("close");
  $("close").onclick = () => { tab = null; renderTabs(); };
  if (open === "log" || wide) $("log").lastElementChild?.scrollIntoView({ block: "nearest" });
}

// ---- the choices ---------------------------------------------------------------------------
function label(item) {
  if (!item.colour) return said(item.label);
  return [chip(item.colour, !item.label.toLowerCase().includes(item.colour.name.toLowerCase())), ...said(item.label)];
}

function renderMenu() {
  const menu = $("menu");
  const choices = state.choices;
  if (!choices) { menu.replaceChildren(); return; }
  const group = openGroup ? choices.groups[openGroup] : null;
  const rows = group ? group.rows : choices.rows;
  const parts = [];
  if (group && group.text) parts.push(el("p", {}, ...said(group.text)));
  for (const row of rows) {
    parts.push(el("div", { class: "row" }, ...row.map((item) => {
      const button = item.act
        ? el("button", { type: "button", "data-act": item.act, "data-colour": item.colour ? item.colour.name : null,
                         onclick: () => act(item.act) }, ...label(item))
        : el("button", { type: "button", "data-open": item.open,
                         onclick: () => { openGroup = item.open; renderMenu(); renderPictures(); } }, ...label(item));
      if (item.act) linkLight(button, item.act);
      if (!connected) button.disabled = true;
      return button;
    })));
  }
  if (group) parts.push(el("div", { class: "row" }, el("button", { type: "button", onclick: () => { openGroup = null; renderMenu(); refit(); } }, text("back"))));
  menu.replaceChildren(...parts);
  compactMenu(menu);
}

// A step with many choices (Papà Paolo's staircase lists 17) lays them out as a grid of compact
// chips, still 28 px high, so the whole menu fits the bar and the board keeps its room above it.
const MANY_CHOICES = 8;

function compactMenu(menu) {
  menu.classList.toggle("many", menu.querySelectorAll("button").length > MANY_CHOICES);
}

function linkLight(node, payload) {
  // A choice and its place light each other up: hover or focus either, both glow.
  const on = () => glow(payload, true), off = () => glow(payload, false);
  node.addEventListener("pointerenter", on);
  node.addEventListener("pointerleave", off);
  node.addEventListener("focus", on);
  node.addEventListener("blur", off);
}

function glow(payload, lit) {
  for (const node of document.querySelectorAll("[data-act]")) {
    if (node.getAttribute("data-act") === payload) node.classList.toggle("glow", lit);
  }
  for (const node of document.querySelectorAll("#world g[data-place]")) {
    if (node.getAttribute("data-place") === payload) node.classList.toggle("glow", lit);
  }
}

function renderReview() {
  const nav = $("review");
  const review = state.review;
  nav.hidden = !review;
  if (!review) { nav.replaceChildren(); return; }
  const at = review.at, total = review.total, rounds = review.rounds;
  const roundBack = [...rounds].reverse().find((start) => start < at);
  const roundOn = rounds.find((start) => start > at);
  const step = (words, target) => el("button", {
    type: "button",
    onclick: () => { reviewAt = target === total ? null : target; send({ type: "review", at: target }); },
    disabled: target === undefined || target === at,
  }, words);
  nav.setAttribute("aria-label", text("review"));
  nav.replaceChildren(
    step(text("first"), 0),
    step(text("round_back"), roundBack),
    step(text("move_back"), at > 0 ? at - 1 : undefined),
    el("span", { "aria-live": "polite" }, text("move_of").replace("{at}", at).replace("{total}", total)),
    step(text("move_on"), at < total ? at + 1 : undefined),
    step(text("round_on"), roundOn === undefined && at < total ? total : roundOn),
    step(text("last"), total),
  );
}

// ---- the board: pictures, lit places, zoom and pan ----------------------------------------------
const view = { scale: 1, x: 0, y: 0, width: 0, height: 0 };   // screen = picture * scale + (x, y)
window.boardView = view;
let figure = null;         // { name, src, base (src without the pass), img, svg, spots }

function spotsOn(name) {
  return ((state.choices && state.choices.spots) || []).filter((spot) => spot.picture === name);
}

function pickPicture(pictures) {
  const lit = pictures.find((picture) => spotsOn(picture.name).length);
  if (lit) return lit;
  return pictures.find((picture) => picture.name === chosenPicture) || pictures[0];
}

function renderPictures() {
  const pictures = state.pictures || [];
  renderTools(pictures);
  if (!pictures.length) { $("world").replaceChildren(); $("hits").replaceChildren(); figure = null; drawn(); return; }
  const picture = pickPicture(pictures);
  shownPicture = picture.name;
  for (const node of document.querySelectorAll("#tools .picture")) node.setAttribute("aria-pressed", String(node.dataset.picture === shownPicture));
  const src = picture.src + "&t=" + encodeURIComponent(pagePass);
  const spots = spotsOn(picture.name);
  const key = picture.name + "|" + spots.map((spot) => spot.act).join(",");
  const reframe = key !== litKey || !figure || figure.name !== picture.name;
  litKey = key;
  if (picture.scene) { showScene(picture, spots, reframe); return; }
  // A picture is known by its name (src without the pass): a page pass traded anew loads nothing again.
  if (figure && figure.base === picture.src) { drawSpots(spots, reframe); drawn(); return; }
  // Until the new picture is here, the old one shows unlit (its places are no choice any more).
  if (figure) { figure.svg.replaceChildren(); figure.spots = []; $("hits").replaceChildren(); }
  // Load the new picture beside the old one, and swap when it is there (no blank board between).
  const img = el("img", { src, alt: picture.alt, "data-picture": picture.name, decoding: "async", draggable: "false" });
  const shown = () => {
    if (state.pictures.every((p) => p.src !== picture.src)) return;   // a newer state came
    img.style.width = img.naturalWidth + "px";
    img.style.height = img.naturalHeight + "px";
    const layer = svg("svg", { width: img.naturalWidth, height: img.naturalHeight, viewBox: `0 0 ${img.naturalWidth} ${img.naturalHeight}`, "aria-hidden": "true" });
    const sameSize = figure && figure.width === img.naturalWidth && figure.height === img.naturalHeight && figure.name === picture.name;
    figure = { name: picture.name, src, base: picture.src, img, svg: layer, width: img.naturalWidth, height: img.naturalHeight };
    $("world").replaceChildren(img, layer);
    drawSpots(spotsOn(picture.name), reframe || !sameSize);
    drawn();
  };
  if (img.complete && img.naturalWidth) shown(); else img.addEventListener("load", shown, { once: true });
}

// ---- the board drawn in the page: the static board fetched once, and the scene the server sends --
// The static board and the sprites come by content-named addresses (the browser keeps them); the
// pieces, rims and the panel's words are drawn over it in its own pixels, and each state changes
// only what moved: a piece known by its key slides to its new place, a new one drops in, within
// MOVE_MS (none where the reader asks for reduced motion).
const MOVE_MS = 250;
const stillMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

function showScene(picture, spots, reframe) {
  const scene = picture.scene;
  if (figure && figure.scene && figure.base === scene.board) {
    if (figure.drawnScene !== scene) drawScene(figure, scene);     // a delta frame kept it: drawn already
    drawSpots(spots, reframe);
    // A state drawn again before its static board is here (the socket opening after the pass's
    // answer drew it) is drawn when the board is (its load listener, below, says so).
    if (figure.img.complete && figure.img.naturalWidth) drawn();
    return;
  }
  if (figure) { figure.svg.replaceChildren(); figure.spots = []; $("hits").replaceChildren(); }
  const img = el("img", { src: scene.board, alt: picture.alt, "data-picture": picture.name, decoding: "async", draggable: "false" });
  const loaded = () => img.complete && img.naturalWidth;
  // The page's first board: its scene is drawn while the static board loads (nothing to keep on
  // the stage meanwhile); a board that changes loads beside the old one and swaps when it is there.
  const first = !figure;
  const shown = () => {
    const now = (state.pictures || []).find((p) => p.scene && p.scene.board === scene.board);
    if (!now) return;   // a newer state came with another board
    // The static board may be shorter than the scene (a panel drawn under it): "bh" is its height.
    img.style.width = scene.w + "px";
    img.style.height = (scene.bh || scene.h) + "px";
    const layer = (name) => svg("svg", { class: name, width: scene.w, height: scene.h, viewBox: `0 0 ${scene.w} ${scene.h}`, "aria-hidden": "true" });
    const over = scene.over ? el("img", { src: scene.over, alt: "", class: "over", draggable: "false" }) : null;
    if (over) { over.style.width = scene.w + "px"; over.style.height = (scene.bh || scene.h) + "px"; }
    const sameSize = figure && figure.width === scene.w && figure.height === scene.h && figure.name === picture.name;
    figure = {
      name: picture.name, src: scene.board, base: scene.board, img, svg: layer("spots"), width: scene.w, height: scene.h,
      scene: { below: layer("below"), pieces: layer("pieces"), above: layer("above"), keys: new Map() },
    };
    $("world").replaceChildren(img, figure.scene.below, figure.scene.pieces, ...(over ? [over] : []), figure.scene.above, figure.svg);
    drawScene(figure, now.scene);
    drawSpots(spotsOn(picture.name), reframe || !sameSize);
    if (loaded()) drawn(); else img.addEventListener("load", () => { if (figure && figure.img === img) drawn(); }, { once: true });
  };
  if (first || loaded()) shown(); else img.addEventListener("load", shown, { once: true });
}

function drawScene(figure, scene) {
  figure.drawnScene = scene;
  const layers = figure.scene;
  layers.below.replaceChildren(...scene.below.map(shape));
  layers.above.replaceChildren(...scene.above.map(([kind, ...rest]) => (
    kind === "words" ? words(rest) : kind === "piece" ? sprite(scene, rest).node : shape(rest))));
  // Pieces by key: the ones still there move (animated), new ones drop in, the rest go.
  const animate = layers.keys.size > 0 && !stillMotion.matches;
  const keys = new Map();
  const nodes = scene.pieces.map((piece) => {
    const [key, name, x, y, size, height] = piece;
    const known = layers.keys.get(key);
    const place = `translate(${x}px, ${y}px)`;
    let node;
    if (known && known.name === name) {
      node = known.node;
      if (animate && (known.x !== x || known.y !== y)) {
        node.animate([{ transform: `translate(${known.x}px, ${known.y}px)` }, { transform: place }], { duration: MOVE_MS, easing: "ease-out" });
      }
      placeSprite(node.firstChild, size, height);
    } else {
      node = sprite(scene, piece).node;
      if (animate) node.animate([{ transform: place + " scale(1.8)", opacity: 0 }, { transform: place, opacity: 1 }], { duration: MOVE_MS, easing: "ease-out" });
    }
    node.style.transform = place;
    keys.set(key, { node, name, x, y });
    return node;
  });
  layers.pieces.replaceChildren(...nodes);
  layers.keys = keys;
}

function sprite(scene, [key, name, x, y, size, height]) {
  // A piece: its sprite centred on (x, y), placed through the CSSOM (the policy allows no style attribute).
  const node = svg("g", { "data-key": key, "data-sprite": name });
  const image = svg("image", { href: scene.sprites[name], preserveAspectRatio: "none" });
  placeSprite(image, size, height);
  node.append(image);
  node.style.transform = `translate(${x}px, ${y}px)`;
  return { node };
}

function placeSprite(image, size, height) {
  // ``size`` wide and ``height`` high (a square when there is no height), centred on its group's origin.
  const tall = height || size;
  for (const [name, value] of [["x", -size / 2], ["y", -tall / 2], ["width", size], ["height", tall]]) image.setAttribute(name, value);
}

function shape([kind, flat, fill, stroke, width, radius]) {
  const paint = { fill: fill || "none", stroke: stroke || "none", "stroke-width": stroke ? width : 0 };
  if (kind === "rect" || kind === "ellipse") {
    const [x0, y0, x1, y1] = flat;
    if (kind === "ellipse") return svg("ellipse", { cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, rx: (x1 - x0) / 2, ry: (y1 - y0) / 2, ...paint });
    return svg("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, rx: radius || 0, ...paint });
  }
  const points = [];
  for (let i = 0; i < flat.length; i += 2) points.push(flat[i] + "," + flat[i + 1]);
  if (kind === "line") return svg("polyline", { points: points.join(" "), fill: "none", stroke: stroke, "stroke-width": width, "stroke-linejoin": "round", "stroke-linecap": "round" });
  return svg("polygon", { points: points.join(" "), ...paint });
}

// PIL's anchors (horizontal: left, middle, right; vertical: ascender, middle, baseline, descender).
const ALONG = { l: "start", m: "middle", r: "end" };
const ACROSS = { a: "text-before-edge", t: "text-before-edge", m: "central", s: "alphabetic", b: "alphabetic", d: "text-after-edge" };

function words([value, x, y, size, bold, fill, anchor, length, halo, haloFill]) {
  const node = svg("text", {
    x, y, "font-size": size, "font-weight": bold ? "bold" : "normal", fill,
    "text-anchor": ALONG[anchor[0]] || "start", "dominant-baseline": ACROSS[anchor[1]] || "text-before-edge",
  });
  // A rim round the letters (PIL's stroke: ``halo`` wide outside them), under the fill.
  if (halo) for (const [name, value] of [["stroke", haloFill], ["stroke-width", 2 * halo], ["paint-order", "stroke"], ["stroke-linejoin", "round"]]) node.setAttribute(name, value);
  const lines = value.split("\n");
  if (lines.length > 1) {
    // Lines one under the other, the block placed by its anchor as PIL's multiline_text places it.
    const first = anchor[1] === "m" ? -(lines.length - 1) / 2 : 0;
    lines.forEach((line, i) => {
      const span = svg("tspan", { x, dy: (i === 0 ? first : 1) * size + "" });
      span.textContent = line;
      node.append(span);
    });
    return node;
  }
  // As wide as the picture's font draws it, so the panel's columns line up as in the chat's picture.
  if (length > 0) { node.setAttribute("textLength", length); node.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
  node.textContent = value;
  return node;
}

function drawn() {
  // The state whose board is drawn and framed (for tests and tools): set after the next frame,
  // once a bar that changed height has framed the board again.
  const shown = version;
  requestAnimationFrame(() => requestAnimationFrame(() => { window.boardDrawn = shown; }));
}

function renderTools(pictures) {
  const tools = [];
  if (pictures.length > 1) {
    for (const picture of pictures) {
      tools.push(el("button", {
        type: "button", class: "picture", "data-picture": picture.name, "aria-pressed": String(picture.name === shownPicture),
        onclick: () => { chosenPicture = picture.name; litKey = ""; renderPictures(); },
      }, picture.name === "seat" ? text("seat_board") : text("board")));
    }
  }
  tools.push(el("button", { type: "button", "aria-label": text("zoom_out"), title: text("zoom_out"), onclick: () => zoomBy(1 / 1.5) }, "−"));
  tools.push(el("button", { type: "button", "aria-label": text("zoom_fit"), title: text("zoom_fit"), onclick: () => frame(null) }, "⤢"));
  tools.push(el("button", { type: "button", "aria-label": text("zoom_in"), title: text("zoom_in"), onclick: () => zoomBy(1.5) }, "+"));
  $("tools").replaceChildren(...tools);
}

function drawSpots(spots, reframe) {
  if (!figure) return;
  figure.spots = spots;
  const shapes = spots.map((spot) => {
    const [left, top, right, bottom] = spot.box;
    const group = svg("g", { "data-place": spot.act });
    let make;
    if (spot.outline) make = () => svg("polygon", { points: spot.outline.map((p) => p.join(",")).join(" ") });
    else if (spot.round) make = () => svg("circle", { cx: (left + right) / 2, cy: (top + bottom) / 2, r: Math.max(right - left, bottom - top) / 2 + 2 });
    else make = () => svg("rect", { x: left, y: top, width: right - left, height: bottom - top, rx: 6 });
    const edge = make(), ring = make();
    edge.setAttribute("class", "ring-edge");
    ring.setAttribute("class", "ring");
    group.append(edge, ring);
    return group;
  });
  figure.svg.replaceChildren(...shapes);
  $("hits").replaceChildren(...spots.map((spot) => {
    const button = el("button", {
      type: "button", class: "spot", "aria-label": plain(spot.label), title: plain(spot.label), "data-act": spot.act,
      onclick: (event) => act(nearest(event, spot.act)),
    });
    if (!connected) button.disabled = true;
    linkLight(button, spot.act);
    return button;
  }));
  if (reframe || resized()) frame(spots.length ? spots : null); else place();
}

// ---- framing that follows the bar ----------------------------------------------------------------
// The stage's size when the board was last framed. A notice, a pause or a new menu changes the bar's
// height and so the stage's: the board is framed again at once, in the same task, so no moment
// shows the step's places where the old stage had them (the ResizeObserver would come a frame late).
let framedSize = "";

function stageSize() {
  const rect = $("stage").getBoundingClientRect();
  return rect.width + "x" + rect.height;
}

function resized() { return stageSize() !== framedSize; }

function refit() {
  if (figure && resized()) frame(figure.spots && figure.spots.length ? figure.spots : null);
}

// The view framed on ``spots`` (all of them on screen, as large as the picture's width allows), or
// the whole picture's width (null).
function frame(spots) {
  if (!figure) return;
  const stage = $("stage").getBoundingClientRect();
  view.width = stage.width; view.height = stage.height;
  framedSize = stage.width + "x" + stage.height;
  const fitWidth = stage.width / figure.width;
  const contain = Math.min(fitWidth, stage.height / figure.height);
  let box = [0, 0, figure.width, figure.height];
  const wide = window.matchMedia("(min-width: 900px)").matches;
  let scale = wide ? contain : fitWidth;
  if (spots && spots.length) {
    box = [Infinity, Infinity, -Infinity, -Infinity];
    for (const spot of spots) {
      box = [Math.min(box[0], spot.box[0]), Math.min(box[1], spot.box[1]), Math.max(box[2], spot.box[2]), Math.max(box[3], spot.box[3])];
    }
    // Room round the places for their 24 px targets and rings.
    const pad = TARGET / Math.max(scale, 0.01);
    box = [box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad];
    // On a phone, places gathered in a corner (a staircase, a few hexes) are shown larger than the
    // picture's width allows, up to ZOOM_IN: their targets grow past 24 px and fewer overlap.
    const most = wide ? scale : scale * ZOOM_IN;
    scale = Math.max(Math.min(most, stage.width / (box[2] - box[0]), stage.height / (box[3] - box[1])), contain * 0.5);
  } else {
    box = [0, 0, figure.width, Math.min(figure.height, stage.height / scale)];
  }
  view.scale = scale;
  view.x = stage.width / 2 - ((box[0] + box[2]) / 2) * scale;
  view.y = stage.height / 2 - ((box[1] + box[3]) / 2) * scale;
  place();
}

function clampView() {
  const w = figure.width * view.scale, h = figure.height * view.scale;
  view.x = w <= view.width ? (view.width - w) / 2 : Math.min(0, Math.max(view.width - w, view.x));
  view.y = h <= view.height ? (view.height - h) / 2 : Math.min(0, Math.max(view.height - h, view.y));
}

function place() {
  if (!figure) return;
  const stage = $("stage").getBoundingClientRect();
  view.width = stage.width; view.height = stage.height;
  clampView();
  $("world").style.transform = `translate(${view.x}px, ${view.y}px) scale(${view.scale})`;
  const buttons = $("hits").children;
  const rings = figure.svg.children;
  const targets = (figure.spots || []).map((spot, index) => {
    const [left, top, right, bottom] = spot.box;
    const width = Math.max(TARGET, (right - left) * view.scale), height = Math.max(TARGET, (bottom - top) * view.scale);
    const cx = view.x + ((left + right) / 2) * view.scale, cy = view.y + ((top + bottom) / 2) * view.scale;
    return { spot, index, cx, cy, width, height, size: (right - left) * (bottom - top) };
  });
  // A place too small at this zoom for its 24 px target without covering a neighbour's is not
  // lit until the board is zoomed in (its choice stays in the bar): the largest places go first.
  const kept = [];
  const covers = (a, x, y) => Math.abs(a.cx - x) < a.width / 2 && Math.abs(a.cy - y) < a.height / 2;
  for (const target of [...targets].sort((a, b) => b.size - a.size)) {
    const clear = kept.every((other) => !covers(other, target.cx, target.cy) && !covers(target, other.cx, other.cy));
    if (clear) kept.push(target);
    target.shown = clear;
  }
  for (const target of targets) {
    const button = buttons[target.index];
    if (!button) continue;
    button.hidden = !target.shown;
    if (rings[target.index]) rings[target.index].classList.toggle("off", !target.shown);
    button.style.left = (target.cx - target.width / 2) + "px";
    button.style.top = (target.cy - target.height / 2) + "px";
    button.style.width = target.width + "px";
    button.style.height = target.height + "px";
    button.style.borderRadius = target.spot.outline || target.spot.round ? "50%" : "6px";
  }
  figure.targets = targets;
}

// A tap between two lit places goes to the one whose centre is nearer (their 24 px targets may
// overlap where the places are smaller); a key press plays the focused place itself.
function nearest(event, payload) {
  if (!event.detail || !figure || !figure.targets) return payload;
  const stage = $("stage").getBoundingClientRect();
  const x = event.clientX - stage.left, y = event.clientY - stage.top;
  let best = null, distance = Infinity;
  for (const target of figure.targets) {
    if (!target.shown) continue;
    const d = Math.hypot(target.cx - x, target.cy - y);
    if (d < distance) { distance = d; best = target.spot.act; }
  }
  return best || payload;
}

function zoomAt(factor, sx, sy) {
  if (!figure) return;
  const min = Math.min(view.width / figure.width, view.height / figure.height) * 0.5;
  const max = (view.width / figure.width) * 6;
  const scale = Math.min(max, Math.max(min, view.scale * factor));
  view.x = sx - ((sx - view.x) * scale) / view.scale;
  view.y = sy - ((sy - view.y) * scale) / view.scale;
  view.scale = scale;
  place();
}

function zoomBy(factor) { zoomAt(factor, view.width / 2, view.height / 2); }

// Pointers: one drags the board, two pinch it; a double tap zooms in (or back out); the wheel zooms.
const pointers = new Map();
let dragged = false;
let lastTap = 0;
let pinch = null;

function stagePoint(event) {
  const stage = $("stage").getBoundingClientRect();
  return [event.clientX - stage.left, event.clientY - stage.top];
}

function listen() {
  const stage = $("stage");
  // The bar grows and shrinks with the decision: the board is framed again on what the step lights
  // (most changes frame it at once, ``refit``; this catches the rest: a font loaded, a rotation).
  new ResizeObserver(refit).observe(stage);
  // Focus or a script may scroll the board's box (where CSS's overflow: clip is missing): the
  // view alone moves the board.
  stage.addEventListener("scroll", () => { stage.scrollTop = 0; stage.scrollLeft = 0; });
  stage.addEventListener("pointerdown", (event) => {
    if (event.target.closest("#tools")) return;
    pointers.set(event.pointerId, stagePoint(event));
    if (pointers.size === 1) dragged = false;
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { distance: Math.hypot(a[0] - b[0], a[1] - b[1]), scale: view.scale };
    }
  });
  stage.addEventListener("pointermove", (event) => {
    if (!pointers.has(event.pointerId)) return;
    const [x, y] = stagePoint(event);
    const [px, py] = pointers.get(event.pointerId);
    pointers.set(event.pointerId, [x, y]);
    if (pointers.size === 2 && pinch) {
      const [a, b] = [...pointers.values()];
      const distance = Math.hypot(a[0] - b[0], a[1] - b[1]);
      zoomAt((pinch.scale * distance) / pinch.distance / view.scale, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
      dragged = true;
    } else if (pointers.size === 1 && (dragged || Math.hypot(x - px, y - py) > 0)) {
      if (!dragged && event.pointerType !== "mouse" && Math.hypot(x - px, y - py) < 1) return;
      view.x += x - px; view.y += y - py;
      if (Math.abs(x - px) + Math.abs(y - py) > 2) dragged = true;
      if (dragged) place();
    }
  });
  const up = (event) => {
    pointers.delete(event.pointerId);
    if (pointers.size < 2) pinch = null;
  };
  stage.addEventListener("pointerup", (event) => {
    up(event);
    if (dragged || event.target.closest("#tools, .spot")) return;
    const now = Date.now();
    if (now - lastTap < 350) {
      const [x, y] = stagePoint(event);
      const fit = view.width / (figure ? figure.width : 1);
      zoomAt(view.scale > fit * 1.8 ? fit / view.scale : 2, x, y);
      lastTap = 0;
    } else lastTap = now;
  });
  stage.addEventListener("pointercancel", up);
  // A drag that ends on a lit place is not a tap on it.
  stage.addEventListener("click", (event) => { if (dragged) { event.stopPropagation(); event.preventDefault(); dragged = false; } }, true);
  stage.addEventListener("wheel", (event) => {
    event.preventDefault();
    const [x, y] = stagePoint(event);
    zoomAt(Math.exp(-event.deltaY * 0.002), x, y);
  }, { passive: false });
}

window.addEventListener("resize", () => {
  // A page turned from portrait to landscape asks for the other picture.
  if (state && socket && socket.readyState === WebSocket.OPEN && state.layout !== layout()) {
    send({ type: "hello", since: null, layout: layout(), at: reviewAt });
  }
  if (state) renderTabs();
  if (figure) frame(figure.spots && figure.spots.length ? figure.spots : null);
});

async function start() {
  const linked = hash.get("t") || params.get("t");
  forgetAddress();       // the link's pass and Telegram's launch data (read above) leave the address
  const webApp = window.Telegram && window.Telegram.WebApp;
  if (linked) pass = linked;
  else if (hash.has("tgWebAppData") || (webApp && webApp.initData)) {
    pass = await telegramPass();
    if (!pass) return;   // refused: it says why
  } else pass = kept();
  if (!pass) {
    // Opened without a link (and not from Telegram): the server put the words in the page's language.
    if (!document.querySelector(".refused")) refused(document.querySelector("meta[name=no-link]").content);
    return;
  }
  kept(pass);            // a reload of this tab opens the board again
  setInterval(() => freshPagePass().catch(() => {}), 60_000);
  listen();
  connect();
}

start();
