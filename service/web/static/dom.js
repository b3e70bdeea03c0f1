// Building the page. Every string from the API, a model or the player goes in as a text node
// (or an attribute value), never as HTML: nothing here hands a string to the HTML parser.

/** An element: h("button", {type: "button", onclick: f}, "Roll"). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "value") el.value = value;
    else if (key === "checked") el.checked = Boolean(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

let ids = 0;
/** A unique id for label/for and aria-describedby. */
export const uid = (prefix = "f") => `${prefix}-${++ids}`;

/** "strong_hit" -> "Strong hit". */
export function words(id) {
  const s = String(id ?? "").replace(/_/g, " ").trim();
  return s ? s[0].toUpperCase() + s.slice(1) : "";
}

/** A labelled control: <div class="field"><label>…</label>control<small hint/></div>. */
export function field(label, control, hint) {
  control.id ||= uid();
  const wrap = h("div", { class: "field" }, h("label", { for: control.id }, label), control);
  if (hint) {
    const small = h("small", { class: "hint", id: uid("hint") }, hint);
    control.setAttribute("aria-describedby", small.id);
    wrap.append(small);
  }
  return wrap;
}

export function select(options, attrs = {}) {
  return h("select", attrs, options.map(([value, label]) => h("option", { value }, label)));
}

/** Paragraphs of plain text (blank lines separate them). */
export function paragraphs(text) {
  return String(text ?? "")
    .split(/\n\s*\n/)
    .filter((p) => p.trim())
    .map((p) => h("p", {}, p));
}

export function announce(message) {
  const status = document.getElementById("status");
  if (status) status.textContent = message;
}

/** An error shown where it happened, announced to screen readers. */
export function errorBox(error) {
  return h("p", { class: "error", role: "alert" }, error?.message ?? String(error));
}

export function when(iso) {
  try {
    return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  } catch {
    return String(iso);
  }
}
