// The page's first request, made as its head is read: a link's pass (in the fragment; older links:
// the query) traded for a page pass and the page's first state (POST api/pass, with the layout the
// page will ask for), while board.js is still on its way. board.js takes the answer
// (window.boardOpening) instead of asking again; without a link's pass (a Mini App, a reload) it
// asks itself, as before.
(() => {
  const pass = new URLSearchParams(location.hash.slice(1)).get("t") || new URLSearchParams(location.search).get("t");
  if (!pass) return;
  const layout = window.innerWidth < 700 ? "portrait" : "landscape";
  const answer = fetch(new URL("api/pass", location.href), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ pass, layout }),
  });
  answer.catch(() => {});     // no answer (offline): board.js says so and asks again
  window.boardOpening = { pass, layout, answer };
})();
