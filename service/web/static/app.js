// The page's entry point: the start view at /, the play view at /play/{session}.

import { ApiError, apiKey, forgetApiKey, setApiKey } from "./api.js";
import { clear, errorBox, field, h } from "./dom.js";
import { playView } from "./play.js";
import { startView } from "./start.js";

const main = document.getElementById("main");

async function route() {
  const forget = document.getElementById("forget-key");
  forget.hidden = !apiKey();
  forget.onclick = () => {
    forgetApiKey();
    location.reload();
  };
  const played = /^\/play\/([^/]+)\/?$/.exec(location.pathname);
  try {
    if (played) await playView(main, decodeURIComponent(played[1]));
    else await startView(main);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) keyPrompt(error);
    else clear(main, h("h1", {}, "Something went wrong"), errorBox(error), h("p", {}, h("a", { href: "/" }, "Back to your sessions")));
  }
}

/** The service has API keys (FATEWEAVER_API_KEYS): ask for one, then try again. */
function keyPrompt(error) {
  const input = h("input", { type: "password", name: "key", autocomplete: "current-password", required: true });
  const remember = h("input", { type: "checkbox", name: "remember" });
  const form = h(
    "form",
    { class: "card narrow", "aria-labelledby": "key-title" },
    h("h1", { id: "key-title" }, "Your API key"),
    h("p", {}, "This service keeps each player's sessions under an API key. Enter yours; it is sent with every request as Authorization: Bearer."),
    apiKey() ? errorBox(error) : null,
    field("API key", input),
    h("div", { class: "field check" }, remember, h("label", { for: (remember.id = "remember-key") }, "Remember it on this device")),
    h("button", { type: "submit", class: "primary" }, "Continue"),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    setApiKey(input.value.trim(), remember.checked);
    route();
  });
  clear(main, form);
  input.focus();
}

route();
