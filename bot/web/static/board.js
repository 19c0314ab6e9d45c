// The live board: shows the state the server sends for this page's viewer, lights the places a
// choice can be made, and sends a tap back as the choice's signed payload. The page holds nothing
// the server did not send it, so it holds no one else's secrets. No framework, no build step.

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const hash = new URLSearchParams(location.hash.slice(1));

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

const layout = () => (window.innerWidth < 700 ? "portrait" : "landscape");
const text = (key, fallback) => (state && state.texts && state.texts[key]) || fallback || "";

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "onclick") node.addEventListener("click", value);
    else if (value !== null && value !== undefined) node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function notice(message, bad = false) {
  const box = $("notice");
  box.textContent = message || "";
  box.hidden = !message;
  box.classList.toggle("bad", bad);
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

async function freshPagePass() {
  if (pagePass && Date.now() < pagePassUntil) return true;
  const response = await fetch(new URL("api/pass", location.href), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ pass }),
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) { refused(body.text || ""); return false; }
  pagePass = body.pass;
  pagePassUntil = Date.now() + body.seconds * 500;
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
    notice("");
    // A tap sent just before the connection dropped may never be answered: its buttons come back
    // (if it did land, the new state follows the hello).
    if (waitingReply && state) { waitingReply = false; render(); }
    socket.send(JSON.stringify({ type: "hello", since: reviewAt === null ? version : null, layout: layout(), at: reviewAt }));
  });
  socket.addEventListener("message", (event) => heard(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    if (!state) { refusedOnOpen(); return; }
    notice(text("reconnecting", "…"), true);
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, Math.min(250 * 2 ** retry, 5000));
  });
}

async function refusedOnOpen() {
  // The server refused the page's pass before the connection opened: say why, in its words.
  const response = await fetch(new URL("live?t=" + encodeURIComponent(pagePass), location.href));
  const body = await response.json().catch(() => ({}));
  if (body.text) refused(body.text);
  else setTimeout(connect, 1000);
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}
window.boardSend = send;          // the page's one way to the server (assistive tools and tests)

function heard(message) {
  if (message.type === "state") {
    state = message.state;
    version = message.version;
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
  if (waitingReply) return;
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
  $("players").setAttribute("aria-label", text("players"));
  $("players").replaceChildren(...state.players.map((p) => el("li", {
    class: [p.acting ? "acting" : "", p.you ? "you" : ""].join(" ").trim() || null,
  }, p.name + (p.you ? " (" + text("you") + ")" : ""))));
  $("lines").replaceChildren(...(state.lines || []).map((line) => el("p", {}, line)));
  $("prompt").textContent = state.prompt || "";
  renderPictures();
  renderMenu();
  renderReview();
  const secret = $("secret");
  secret.hidden = !state.secret;
  secret.querySelector("h2").textContent = text("secret");
  secret.querySelector("p").textContent = state.secret || "";
  const final = $("final");
  final.hidden = !state.final;
  final.replaceChildren(...(state.final || []).map((line) => el("p", {}, line)));
  $("log-title").textContent = text("log");
  $("log").replaceChildren(...(state.log || []).map((line) => el("li", {}, line)));
  $("log").scrollTop = $("log").scrollHeight;
}

function renderPictures() {
  const spots = (state.choices && state.choices.spots) || [];
  // The picture the viewer acts on comes first (on a phone, the rest is further down).
  const lit = (picture) => spots.some((spot) => spot.picture === picture.name);
  const pictures = [...(state.pictures || [])].sort((a, b) => lit(b) - lit(a));
  const figures = pictures.map((picture) => {
    const img = el("img", { src: picture.src + "&t=" + encodeURIComponent(pagePass), alt: picture.alt, "data-picture": picture.name });
    const figure = el("figure", {}, img);
    const mine = spots.filter((spot) => spot.picture === picture.name);
    const place = () => {
      const width = img.naturalWidth, height = img.naturalHeight;
      if (!width) return;
      for (const spot of mine) {
        const [left, top, right, bottom] = spot.box;
        const button = el("button", {
          class: "spot", "aria-label": spot.label, title: spot.label, "data-act": spot.act,
          onclick: () => act(spot.act),
        });
        // Through the style object, not a style attribute: the page's policy forbids inline styles.
        Object.assign(button.style, {
          left: `${(100 * left) / width}%`, top: `${(100 * top) / height}%`,
          width: `${(100 * (right - left)) / width}%`, height: `${(100 * (bottom - top)) / height}%`,
        });
        figure.append(button);
      }
    };
    if (img.complete) place(); else img.addEventListener("load", place, { once: true });
    return figure;
  });
  $("pictures").replaceChildren(...figures);
}

function renderMenu() {
  const menu = $("menu");
  const choices = state.choices;
  if (!choices) { menu.replaceChildren(); return; }
  const group = openGroup ? choices.groups[openGroup] : null;
  const rows = group ? group.rows : choices.rows;
  const parts = [];
  if (group && group.text) parts.push(el("p", {}, group.text));
  for (const row of rows) {
    parts.push(el("div", { class: "row" }, ...row.map((item) => item.act
      ? el("button", { "data-act": item.act, onclick: () => act(item.act) }, item.label)
      : el("button", { "data-open": item.open, onclick: () => { openGroup = item.open; renderMenu(); } }, item.label))));
  }
  if (group) parts.push(el("div", { class: "row" }, el("button", { onclick: () => { openGroup = null; renderMenu(); } }, text("back"))));
  menu.replaceChildren(...parts);
}

function renderReview() {
  const nav = $("review");
  const review = state.review;
  nav.hidden = !review;
  if (!review) return;
  const at = review.at, total = review.total, rounds = review.rounds;
  const roundBack = [...rounds].reverse().find((start) => start < at);
  const roundOn = rounds.find((start) => start > at);
  const step = (label, target) => el("button", {
    onclick: () => { reviewAt = target === total ? null : target; send({ type: "review", at: target }); },
    disabled: target === undefined || target === at ? "" : null,
  }, label);
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

window.addEventListener("resize", () => {
  // A page turned from portrait to landscape asks for the other picture.
  if (state && socket && socket.readyState === WebSocket.OPEN && state.layout !== layout()) {
    send({ type: "hello", since: null, layout: layout(), at: reviewAt });
  }
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
  connect();
}

start();
