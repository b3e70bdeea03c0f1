// The start view: your sessions, and a new session per system, its form built from the
// system's sheet schema (GET /v1/systems: sheet_schema).

import { allSystems, ApiError, get, post } from "./api.js";
import { append, clear, errorBox, field, h, select, uid, when, words } from "./dom.js";

export async function startView(main) {
  const [sessions, systems] = await Promise.all([get("/v1/sessions"), allSystems()]);
  document.title = "Sessions · fateweaver";
  const playable = systems.filter((s) => s.sheet_schema);
  const names = Object.fromEntries(systems.map((s) => [s.id, s.name]));
  clear(
    main,
    h("h1", {}, "Play solo"),
    h(
      "div",
      { class: "start" },
      h("section", { class: "card", "aria-labelledby": "list-title" },
        h("h2", { id: "list-title" }, "Your sessions"),
        sessionList(sessions, names)),
      h("section", { class: "card", "aria-labelledby": "new-title" },
        h("h2", { id: "new-title" }, "New session"),
        newSession(playable)),
    ),
  );
}

function sessionList(sessions, names) {
  if (!sessions.length) return h("p", { class: "muted" }, "No sessions yet: start one.");
  return h(
    "ul",
    { class: "sessions" },
    sessions.map((s) =>
      h(
        "li",
        {},
        h("a", { href: `/play/${encodeURIComponent(s.id)}`, class: "session-link" }, s.name),
        h("span", { class: "meta" },
          [names[s.system] ?? s.system, s.state?.sheet?.name || "unnamed character",
           `${s.turns} turn${s.turns === 1 ? "" : "s"}`, s.status === "ended" ? "ended" : null,
           when(s.updated_at)].filter(Boolean).join(" · ")),
      ),
    ),
  );
}

function newSession(systems) {
  const choose = select(systems.map((s) => [s.id, s.name]), { name: "system" });
  const holder = h("div");
  const show = () => clear(holder, sheetForm(systems.find((s) => s.id === choose.value)));
  choose.addEventListener("change", show);
  show();
  return h("div", {}, field("Game system", choose), holder);
}

// --- a form from a JSON schema ----------------------------------------------------------------

function resolve(schema, root) {
  if (schema?.$ref) {
    const target = root.$defs?.[schema.$ref.split("/").pop()] ?? {};
    return resolve({ ...target, ...schema, $ref: undefined }, root);
  }
  if (schema?.anyOf) {
    const other = schema.anyOf.filter((s) => s.type !== "null");
    if (other.length >= 1) {
      const first = resolve(other.find((s) => s.type === "integer") ?? other[0], root);
      return { ...first, ...schema, anyOf: undefined, type: first.type, nullable: other.length < schema.anyOf.length };
    }
  }
  return schema ?? {};
}

function isSimple(schema, root) {
  const s = resolve(schema, root);
  if (["string", "integer", "number", "boolean"].includes(s.type)) return true;
  if (s.type === "array") return Boolean(resolve(s.items, root).enum);
  if (s.type === "object") {
    if (s.properties) return Object.values(s.properties).every((p) => isSimple(p, root));
    return Boolean(s.propertyNames?.enum || s.patternProperties);
  }
  return false;
}

function rangeHint(s) {
  const parts = [];
  if (s.description) parts.push(s.description);
  if (s.minimum !== undefined && s.maximum !== undefined) parts.push(`${s.minimum} to ${s.maximum}`);
  else if (s.minimum !== undefined) parts.push(`at least ${s.minimum}`);
  if (![undefined, null, ""].includes(s.default) && typeof s.default !== "object") parts.push(`default ${s.default}`);
  return parts.join("; ");
}

/** Controls for one schema field, each input marked with its path (data-path). */
function control(path, name, schema, root, required) {
  const s = resolve(schema, root);
  const label = path === "sheet.name" ? "Character name" : schema.title || (schema.$ref ? words(name) : s.title) || words(name);
  if (s.type === "object" && s.properties) {
    const need = new Set(s.required ?? []);
    return h("fieldset", { dataset: { path } }, h("legend", {}, label),
      Object.entries(s.properties).map(([key, sub]) => control(`${path}.${key}`, key, sub, root, required && need.has(key))));
  }
  if (s.type === "object" && s.propertyNames?.enum) {
    const value = resolve(s.additionalProperties ?? { type: "integer" }, root);
    return h("fieldset", { dataset: { path } }, h("legend", {}, label),
      s.description ? h("small", { class: "hint" }, s.description) : null,
      s.propertyNames.enum.map((key) => control(`${path}.${key}`, key, value, root, required && (s.required ?? []).includes(key))));
  }
  if (s.type === "object") {
    const input = h("input", { type: "text", dataset: { path, kind: "pairs" }, placeholder: "dexterity 3, athletics 2" });
    return field(label, input, `${s.description ?? ""} (name and number, comma-separated)`);
  }
  if (s.type === "array") {
    const options = resolve(s.items, root).enum;
    return h("fieldset", { dataset: { path }, class: "checks" }, h("legend", {}, label),
      s.description ? h("small", { class: "hint" }, s.description) : null,
      options.map((option) => {
        const box = h("input", { type: "checkbox", id: uid(), value: option, dataset: { path, kind: "set" } });
        return h("span", { class: "check" }, box, h("label", { for: box.id }, words(option)));
      }));
  }
  if (s.type === "boolean") {
    const box = h("input", { type: "checkbox", dataset: { path, kind: "bool" }, checked: s.default === true });
    box.id = uid();
    return h("div", { class: "field check" }, box, h("label", { for: box.id }, label));
  }
  if (s.enum) {
    const input = select([["", "—"], ...s.enum.map((v) => [v, words(v)])], { dataset: { path, kind: "text" } });
    return field(label, input, rangeHint(s));
  }
  const numeric = s.type === "integer" || s.type === "number";
  const input = h("input", {
    type: numeric ? "number" : "text",
    inputmode: numeric ? "numeric" : null,
    min: s.minimum, max: s.maximum, maxlength: s.maxLength,
    step: s.type === "integer" ? 1 : null,
    value: s.default ?? (numeric && required ? s.minimum ?? 0 : ""),
    dataset: { path, kind: numeric ? "number" : "text" },
    "aria-required": required ? "true" : null,
  });
  return field(label + (required ? " (required)" : ""), input, rangeHint(s));
}

function setPath(target, path, value) {
  const parts = path.split(".");
  let at = target;
  for (const part of parts.slice(0, -1)) at = at[part] ??= {};
  at[parts.at(-1)] = value;
}

function collect(form) {
  const out = {};
  for (const input of form.querySelectorAll("[data-path][data-kind]")) {
    const { path, kind } = input.dataset;
    if (kind === "set") {
      setPath(out, path, (getPath(out, path) ?? []).concat(input.checked ? [input.value] : []));
    } else if (kind === "bool") {
      setPath(out, path, input.checked);
    } else if (kind === "number") {
      if (input.value !== "") setPath(out, path, Number(input.value));
    } else if (kind === "pairs") {
      const pairs = {};
      for (const part of input.value.split(",")) {
        const m = /^\s*([a-z][a-z0-9_]*)\s*[=: ]\s*(-?\d+)\s*$/i.exec(part);
        if (m) pairs[m[1].toLowerCase()] = Number(m[2]);
      }
      if (Object.keys(pairs).length) setPath(out, path, pairs);
    } else if (input.value !== "") {
      setPath(out, path, input.value);
    }
  }
  return out;
}

function getPath(obj, path) {
  return path.split(".").reduce((at, part) => at?.[part], obj);
}

function sheetForm(system) {
  const root = system.sheet_schema;
  const need = new Set(root.required ?? []);
  const main = [];
  const more = [];
  for (const [key, sub] of Object.entries(root.properties ?? {})) {
    const s = resolve(sub, root);
    if (s.set_in_play || !isSimple(sub, root)) continue; // assets...: their defaults
    const nested = s.type === "object" && Object.values(s.properties ?? {}).some((p) => resolve(p, root).type === "object");
    if (nested && !need.has(key)) continue; // legacy tracks...: their defaults
    (need.has(key) || key === "name" || s.type === "object" ? main : more).push(control(`sheet.${key}`, key, sub, root, need.has(key)));
  }
  const nameInput = h("input", { type: "text", maxlength: 200, dataset: { path: "name", kind: "text" }, "aria-required": "true" });
  const problem = h("div", { class: "form-error" });
  const form = h(
    "form",
    { class: "sheet-form", novalidate: true, "aria-label": `New ${system.name} session` },
    h("p", { class: "muted" }, system.summary),
    field("Session name (required)", nameInput, "1 to 200 characters"),
    main,
    more.length ? h("details", {}, h("summary", {}, "More of the sheet (optional)"), more) : null,
    problem,
    h("button", { type: "submit", class: "primary" }, `Start a ${system.name} session`),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    clear(problem);
    const data = collect(form);
    try {
      const created = await post("/v1/sessions", { system: system.id, name: data.name ?? "", sheet: data.sheet ?? {} });
      location.assign(`/play/${encodeURIComponent(created.id)}`);
    } catch (error) {
      if (!(error instanceof ApiError) || !showErrors(form, error)) append(problem, errorBox(error));
    }
  });
  return form;
}

export function clearErrors(form) {
  form.querySelectorAll(".field-error").forEach((el) => el.remove());
  form.querySelectorAll("[aria-invalid]").forEach((el) => {
    el.removeAttribute("aria-invalid");
    const ids = (el.getAttribute("aria-describedby") || "").split(" ").filter((id) => !id.startsWith("err-"));
    if (ids.length) el.setAttribute("aria-describedby", ids.join(" "));
    else el.removeAttribute("aria-describedby");
  });
}

/** Each "sheet.x.y: message" beside the input of that path; false if none found a place. */
export function showErrors(form, error) {
  const found = [];
  const parts = error.message.split("; ").map((part) => {
    const m = /^((?:sheet\.)?[\w.[\]]+): (.*)$/.exec(part);
    return m ? [m[1], m[2]] : [error.field, part];
  });
  for (const [path, message] of parts) {
    const target = path && placeFor(form, path.replace(/\[(\d+)\]/g, ".$1"));
    if (!target) continue;
    const note = h("p", { class: "field-error", id: uid("err"), role: "alert" }, message);
    const input = target.matches("input, select, textarea") ? target : target.querySelector("input, select, textarea");
    (target.closest(".field, .check, fieldset") ?? target).append(note);
    if (input) {
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", `${input.getAttribute("aria-describedby") ?? ""} ${note.id}`.trim());
    }
    found.push(input ?? target);
  }
  found[0]?.focus?.();
  return found.length > 0;
}

function placeFor(form, path) {
  const parts = path.split(".");
  for (let n = parts.length; n > 0; n--) {
    const wanted = parts.slice(0, n).join(".");
    const el = [...form.querySelectorAll("[data-path]")].find((e) => e.dataset.path === wanted);
    if (el) return el;
  }
  return null;
}
