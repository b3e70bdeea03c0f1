// The play view: the journal as a story with a dice card per turn, the words box with the
// proposed move, choices as buttons, the character, tracks and clocks, and the tools.

import { ApiError, allSystems, download, get, patch, post, stream } from "./api.js";
import { append, clear, errorBox, field, h, paragraphs, select, uid, when, words } from "./dom.js";
import { changeContext } from "./changes.js";
import { clearErrors, showErrors } from "./start.js";
import { changeList, diceCard, tools } from "./tools.js";

export async function playView(main, id) {
  const base = `/v1/sessions/${encodeURIComponent(id)}`;
  const [session, systems, turns] = await Promise.all([get(base), allSystems(), get(`${base}/turns`)]);
  const system = systems.find((s) => s.id === session.system);
  const [moves, tables] = await Promise.all([
    get(`/v1/systems/${encodeURIComponent(system.id)}/moves`),
    get(`/v1/systems/${encodeURIComponent(system.id)}/tables`),
  ]);
  new Play(main, base, { session, system, moves, tables, turns }).render();
}

const STATUS = {
  proposed: "proposed: accept or change it",
  awaiting_choice: "waiting for your choice",
  resolved: "",
  undone: "undone",
};

class Play {
  constructor(main, base, data) {
    Object.assign(this, data);
    this.main = main;
    this.base = base;
    this.busy = false;
  }

  get ended() {
    return this.session.status === "ended";
  }

  get lastLive() {
    return [...this.turns].reverse().find((t) => t.status !== "undone")?.number;
  }

  // --- layout --------------------------------------------------------------------------------

  render() {
    document.title = `${this.session.name} · fateweaver`;
    this.bar = h("div", { class: "session-bar" });
    this.journal = h("ol", { class: "journal", "aria-label": "Journal" });
    this.actArea = h("div", { class: "act-area" });
    this.sheet = h("div", { class: "sheet-body" });
    this.error = h("div", { class: "action-error" });
    clear(
      this.main,
      this.bar,
      h("div", { class: "play" },
        h("section", { class: "story", "aria-labelledby": "story-title" },
          h("h2", { id: "story-title", class: "sr-only" }, "Story"),
          this.journal, this.error, this.actArea),
        h("aside", { class: "side", "aria-labelledby": "sheet-title" },
          h("h2", { id: "sheet-title" }, "Character"), this.sheet)),
      tools(this),
      h("dialog", { id: "passage", "aria-labelledby": "passage-title" }),
    );
    this.renderBar();
    this.renderJournal();
    this.renderAct();
    this.renderSheet();
    this.journal.lastElementChild?.scrollIntoView({ block: "end" });
  }

  async refresh() {
    [this.session, this.turns] = await Promise.all([get(this.base), get(`${this.base}/turns`)]);
    this.renderBar();
    this.renderJournal();
    this.renderAct();
    this.renderSheet();
  }

  /** Run an action: one at a time, its error shown beside the field it names (in `form`) or
   * under the journal. */
  async act(work, form = null) {
    if (this.busy) return;
    this.busy = true;
    this.main.setAttribute("aria-busy", "true");
    clear(this.error);
    if (form) clearErrors(form);
    try {
      await work();
    } catch (error) {
      if (form && error instanceof ApiError && error.status < 500 && showErrors(form, error)) return;
      append(this.error, errorBox(error));
      try {
        await this.refresh();
      } catch {
        /* the error above says enough */
      }
    } finally {
      this.busy = false;
      this.main.removeAttribute("aria-busy");
    }
  }

  // --- the bar: name, rename, end, export ----------------------------------------------------

  renderBar() {
    const s = this.session;
    const sheet = s.state?.sheet ?? {};
    const title = h("h1", { class: "session-name" }, s.name);
    const meta = h("p", { class: "meta" },
      [this.system.name, sheet.name || "unnamed character", `${s.turns} turn${s.turns === 1 ? "" : "s"}`,
       this.ended ? "ended (read-only)" : null, `last played ${when(s.updated_at)}`].filter(Boolean).join(" · "));
    const controls = h("div", { class: "bar-controls" });
    if (!this.ended) {
      controls.append(
        h("button", { type: "button", onclick: () => this.renameForm(controls) }, "Rename"),
        h("button", { type: "button", onclick: () => this.endForm(controls) }, "End session"),
      );
    }
    const exports = [["markdown", "Markdown", "md"]];
    if (["sundered_isles", "elegy"].includes(s.system)) {
      exports.push(["iron_vault", "Markdown for Iron Vault", "md"], ["iron_vault_zip", "Iron Vault notes (zip)", "zip"]);
    }
    // One "Export" menu (a disclosure): one button wide on a phone, whatever the formats.
    const menu = h("details", { class: "menu export-menu" }, h("summary", {}, "Export"));
    const list = h("div", { class: "menu-items" });
    for (const [format, label, ext] of exports) {
      list.append(h("button", { type: "button", onclick: () => { menu.open = false; this.act(() => this.exportAs(format, ext)); } }, label));
    }
    menu.append(list);
    menu.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && menu.open) {
        menu.open = false;
        menu.querySelector("summary").focus();
      }
    });
    controls.append(menu);
    clear(this.bar, h("div", {}, title, meta), controls);
  }

  renameForm(controls) {
    const input = h("input", { type: "text", value: this.session.name, maxlength: 200, required: true });
    const form = h("form", { class: "inline-form" }, field("New name", input),
      h("button", { type: "submit", class: "primary" }, "Save name"),
      h("button", { type: "button", onclick: () => this.renderBar() }, "Cancel"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.act(async () => {
        this.session = await patch(this.base, { name: input.value });
        this.renderBar();
        this.bar.querySelector("h1").focus?.();
      });
    });
    clear(controls, form);
    input.focus();
    input.select();
  }

  endForm(controls) {
    const yes = h("button", { type: "button", class: "danger" }, "Yes, end it");
    yes.addEventListener("click", () => this.act(async () => {
      this.session = await post(`${this.base}/end`);
      await this.refresh();
    }));
    clear(controls, h("p", {}, "End this session? It becomes read-only (you can still read and export it)."),
      yes, h("button", { type: "button", onclick: () => this.renderBar() }, "Cancel"));
    yes.focus();
  }

  async exportAs(format, ext) {
    const { blob, name } = await download(`${this.base}/export?format=${format}`, `${this.session.name}.${ext}`);
    const url = URL.createObjectURL(blob);
    const link = h("a", { href: url, download: name, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  // --- the journal ----------------------------------------------------------------------------

  renderJournal() {
    if (!this.turns.length) {
      clear(this.journal, h("li", { class: "empty muted" }, "Nothing has happened yet. Say what your character does below."));
      return;
    }
    clear(this.journal, this.turns.map((t) => this.turnCard(t)));
  }

  /** The card of a turn, put in the journal (replacing the old one), returned. */
  putTurn(turn, streaming = false) {
    const card = this.turnCard(turn, streaming);
    const old = this.journal.querySelector(`[data-turn="${turn.number}"]`);
    if (old) old.replaceWith(card);
    else {
      this.journal.querySelector(".empty")?.remove();
      this.journal.append(card);
    }
    card.scrollIntoView({ block: "nearest" });
    return card;
  }

  turnCard(turn, streaming = false) {
    const live = !this.ended && turn.number === this.lastLive;
    const headId = `turn-${turn.number}-title`;
    const res = turn.resolution;
    const what = res?.details?.name || this.moveName(turn.proposal?.move) || words(res?.kind || turn.kind);
    const card = h("li", { class: `turn ${turn.status}`, dataset: { turn: turn.number, status: turn.status } });
    const article = h("article", { "aria-labelledby": headId },
      h("header", {},
        h("h3", { id: headId, tabindex: "-1" }, `Turn ${turn.number} · ${what}`),
        STATUS[turn.status] ? h("span", { class: `badge ${turn.status}` }, STATUS[turn.status]) : null),
      h("p", { class: "words" }, turn.words));
    card.append(article);
    if (turn.status === "proposed") article.append(this.proposalBox(turn, live));
    const ctx = changeContext(this.system, this.session.state);
    if (res) article.append(diceCard(res, ctx));
    if (turn.status === "awaiting_choice" && live) article.append(this.choiceBox(turn));
    const changes = res ? [] : turn.changes; // a roll's changes are on its dice card
    if (changes?.length) article.append(changeList(changes, ctx));
    const narration = h("div", { class: "narration" }, paragraphs(turn.narration));
    if (streaming) {
      narration.classList.add("streaming");
      narration.setAttribute("aria-live", "polite");
      narration.setAttribute("aria-busy", "true");
    }
    article.append(narration);
    card.narration = narration;
    if (turn.narrator) {
      const told = turn.narrator === "offline" ? `offline narrator (${turn.narrated?.reason ?? ""})` : `model ${turn.narrated?.model ?? ""}`;
      article.append(h("p", { class: "narrator muted" }, `Told by the ${told}`));
    }
    if (turn.narration_status === "pending") article.append(h("p", { class: "muted" }, "Narration pending: tell it again."));
    if (!this.ended && turn.status === "resolved" && res) {
      article.append(h("div", { class: "turn-actions" },
        h("button", { type: "button", onclick: () => this.act(() => this.narrated(`${this.base}/turns/${turn.number}/renarrate`, {})) },
          `Re-narrate turn ${turn.number}`)));
    }
    return card;
  }

  moveName(id) {
    return id ? this.moves.find((m) => m.id === id)?.name : undefined;
  }

  /** A turn's mechanics, then its narration as it streams (a discard withdraws what was shown). */
  async narrated(path, body) {
    let card = null;
    let text = null;
    const final = await stream(path, body, {
      mechanics: (turn) => {
        card = this.putTurn(turn, true);
        text = document.createTextNode("");
        clear(card.narration, h("p", {}, text));
      },
      token: ({ text: piece }) => {
        if (text) text.appendData(piece);
      },
      discard: ({ reason }) => {
        if (!card) return;
        text = document.createTextNode("");
        clear(card.narration, h("p", { class: "withdrawn muted" }, `(Withdrawn: ${reason})`), h("p", {}, text));
      },
    });
    await this.refresh();
    const shown = this.journal.querySelector(`[data-turn="${final.number}"]`);
    const next = shown?.querySelector(".proposal button, .choices button");
    (next ?? shown?.querySelector("h3"))?.focus();
    return final;
  }

  // --- a proposal, and the move picker ---------------------------------------------------------

  proposalBox(turn, live) {
    const p = turn.proposal ?? {};
    const stat = p.params?.stat ? ` +${p.params.stat}` : "";
    const rest = Object.entries(p.params ?? {}).filter(([k]) => !["move", "stat"].includes(k)).map(([k, v]) => `${k} ${v}`);
    const box = h("div", { class: "proposal" },
      h("p", {}, "Proposed: ", h("strong", {}, `${this.moveName(p.move) ?? words(p.kind)}${stat}`),
        rest.length ? ` (${rest.join(", ")})` : "", p.why ? ` — ${p.why}` : ""),
      p.rejected ? h("p", { class: "muted" }, `The model's proposal was not used: ${p.rejected}`) : null);
    if (!live) return box;
    const spec = rollSpec(this, { move: p.move, kind: p.kind, stat: p.params?.stat, params: p.params, propose: false });
    const change = h("form", { class: "change", hidden: true, "aria-label": `Change the proposal of turn ${turn.number}` },
      spec.el, h("button", { type: "submit", class: "primary" }, "Roll this instead"));
    change.addEventListener("submit", (event) => {
      event.preventDefault();
      this.act(() => this.narrated(`${this.base}/turns/${turn.number}/accept`, spec.value()));
    });
    const toggle = h("button", { type: "button", "aria-expanded": "false" }, "Change…");
    toggle.addEventListener("click", () => {
      change.hidden = !change.hidden;
      toggle.setAttribute("aria-expanded", String(!change.hidden));
      if (!change.hidden) change.querySelector("select, input")?.focus();
    });
    box.append(h("div", { class: "buttons" },
      h("button", { type: "button", class: "primary", onclick: () => this.act(() => this.narrated(`${this.base}/turns/${turn.number}/accept`, {})) },
        "Accept and roll"),
      toggle), change);
    return box;
  }

  // --- choices ------------------------------------------------------------------------------------

  choiceBox(turn) {
    const picked = {};
    const box = h("div", { class: "choices" });
    const handRolled = turn.resolution && turn.resolution.seed === null;
    const diceInput = h("input", { type: "text", inputmode: "numeric", placeholder: "e.g. 47" });
    const send = () => {
      const body = { choices: picked };
      const dice = parseDice(diceInput.value);
      if (dice) body.dice = dice;
      this.act(() => this.narrated(`${this.base}/turns/${turn.number}/choose`, body));
    };
    const confirm = h("button", { type: "button", class: "primary", hidden: turn.choices.length < 2, onclick: send }, "Confirm choices");
    for (const choice of turn.choices) {
      const promptId = uid("choice");
      const group = h("div", { role: "group", "aria-labelledby": promptId, class: "choice" },
        h("p", { id: promptId }, choice.prompt, " ", h("cite", {}, choice.citation?.heading ?? "")));
      for (const option of choice.options) {
        const button = h("button", { type: "button", "aria-pressed": turn.choices.length > 1 ? "false" : null }, option.label);
        button.addEventListener("click", () => {
          picked[choice.param] = option.value;
          if (turn.choices.length === 1) return send();
          group.querySelectorAll("button").forEach((b) => b.setAttribute("aria-pressed", String(b === button)));
        });
        group.append(button);
      }
      box.append(group);
    }
    if (handRolled && turn.choices.some((c) => c.extra_dice)) {
      box.append(field("Dice for the extra roll, if you roll it by hand", diceInput, "an option that rolls on a table needs its d100 when the turn's dice were yours; leave empty to let the engine roll"));
    }
    box.append(confirm);
    return box;
  }

  // --- the words box --------------------------------------------------------------------------

  renderAct() {
    if (this.ended) {
      clear(this.actArea, h("p", { class: "muted" }, "This session has ended: it is read-only."));
      return;
    }
    const input = h("textarea", { rows: 3, maxlength: 2000, name: "words" });
    const spec = rollSpec(this, { propose: true });
    const form = h("form", { class: "act", "aria-label": "Your turn" },
      field("What does your character do?", input, "In your own words (Ctrl+Enter plays it). Without a move chosen below, a move is proposed and nothing is rolled until you accept it."),
      h("details", {}, h("summary", {}, "Choose the move yourself, or roll by hand"), spec.el),
      h("div", { class: "buttons" },
        h("button", { type: "submit", class: "primary" }, "Play this turn"),
        h("button", { type: "button", onclick: () => this.act(() => this.undo()) }, "Undo last turn")));
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) form.requestSubmit();
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (!input.value.trim()) {
        clear(this.error, errorBox(new Error("Say what your character does first.")));
        input.focus();
        return;
      }
      this.act(async () => {
        await this.narrated(`${this.base}/turns`, { words: input.value, ...spec.value() });
      });
    });
    clear(this.actArea, form);
  }

  async undo() {
    const turn = await post(`${this.base}/undo`);
    await this.refresh();
    this.journal.querySelector(`[data-turn="${turn.number}"] h3`)?.focus();
  }

  // --- the character, tracks and clocks ---------------------------------------------------------

  renderSheet() {
    const state = this.session.state ?? {};
    const sheet = state.sheet ?? {};
    clear(this.sheet, h("p", { class: "character-name" }, sheet.name || "Unnamed character"));
    const shown = new Set(["name"]);
    const meters = this.system.meters.filter((m) => typeof (sheet[m.id] ?? sheet.meters?.[m.id]) === "number");
    if (meters.length) {
      this.sheet.append(h("h3", {}, "Meters"), h("ul", { class: "meters" }, meters.map((m) => {
        const value = sheet[m.id] ?? sheet.meters?.[m.id];
        shown.add(m.id);
        const id = uid("meter");
        return h("li", { dataset: { meter: m.id } },
          h("span", { id }, m.name), " ",
          h("meter", { min: m.min, max: m.max, value, "aria-labelledby": id }),
          h("span", { class: "value" }, ` ${value} / ${m.max}`));
      })));
      if (sheet.meters) shown.add("meters");
    }
    for (const key of ["stats", "attributes", "abilities", "traits"]) {
      const stats = sheet[key];
      if (!stats || typeof stats !== "object" || Array.isArray(stats)) continue;
      shown.add(key);
      this.sheet.append(h("h3", {}, words(key)), h("dl", { class: "stats" }, Object.entries(stats).map(([k, v]) =>
        [h("dt", {}, words(k)), h("dd", {}, typeof v === "object" ? v?.score ?? JSON.stringify(v) : v)])));
    }
    for (const key of ["impacts", "conditions"]) {
      if (!Array.isArray(sheet[key])) continue;
      shown.add(key);
      this.sheet.append(h("h3", {}, words(key)), sheet[key].length
        ? h("ul", { class: "chips" }, sheet[key].map((i) => h("li", {}, words(i))))
        : h("p", { class: "muted" }, "none"));
    }
    const other = Object.entries(sheet).filter(([k, v]) => !shown.has(k) && v !== null && v !== "");
    if (other.length) {
      this.sheet.append(h("h3", {}, "Also"), h("dl", { class: "stats" }, other.map(([k, v]) => [h("dt", {}, words(k)), h("dd", {}, summary(v))])));
    }
    if (!this.ended) append(this.sheet, [this.handForm(sheet), this.restSection()]);
    this.sheet.append(this.trackSection(state.tracks ?? {}), this.clockSection(state.clocks ?? {}));
  }

  trackSection(tracks) {
    const section = h("section", { class: "tracks", "aria-labelledby": "tracks-title" }, h("h3", { id: "tracks-title" }, "Tracks"));
    const list = Object.values(tracks);
    if (!list.length) section.append(h("p", { class: "muted" }, "No tracks yet."));
    section.append(h("ul", {}, list.map((t) => {
      const open = t.status === "open" && !this.ended;
      return h("li", { class: `track ${t.status}`, dataset: { track: t.id } },
        h("p", {}, h("strong", {}, t.name), ` · ${words(t.type)}${t.rank ? ` · ${t.rank}` : ""}${t.status !== "open" ? ` · ${t.status}` : ""}`),
        progressBoxes(t),
        open ? h("div", { class: "buttons" },
          h("button", { type: "button", onclick: () => this.act(async () => { await post(`${this.base}/tracks/${encodeURIComponent(t.id)}/progress`, { times: 1 }); await this.refresh(); }) },
            h("span", { class: "sr-only" }, `${t.name}: `), "Mark progress"),
          h("button", { type: "button", onclick: () => this.act(() => this.narrated(`${this.base}/turns`, { words: `Progress roll: ${t.name}`, track: t.id })) },
            h("span", { class: "sr-only" }, `${t.name}: `), "Progress roll"),
          this.closeButton(t, "completed", "Complete"),
          this.closeButton(t, "abandoned", t.type === "vow" ? "Forsake" : "Abandon")) : null);
    })));
    if (!this.ended && this.system.track_types.length) section.append(this.trackForm());
    return section;
  }

  /** Close a track by hand: fulfilled (completed), or given up (abandoned; a vow forsaken). */
  closeButton(t, status, label) {
    return h("button", { type: "button", class: status === "abandoned" ? "danger" : null, onclick: () => this.act(async () => {
      await post(`${this.base}/tracks/${encodeURIComponent(t.id)}/close`, { status });
      await this.refresh();
    }) }, h("span", { class: "sr-only" }, `${t.name}: `), label);
  }

  /** The sheet changed by hand (POST /sheet): a meter taken or suffered, experience, an impact
   * or condition marked or cleared. Each error beside the field it names. */
  handForm(sheet) {
    const numbers = [];
    for (const m of this.system.meters) {
      if (typeof sheet[m.id] === "number") numbers.push([m.id, m.name]);
      else if (typeof sheet.meters?.[m.id] === "number") numbers.push([`meters.${m.id}`, m.name]);
    }
    if (typeof sheet.experience === "number") numbers.push(["experience", "Experience"]);
    const listKey = ["impacts", "conditions"].find((k) => Array.isArray(sheet[k]));
    const known = listKey ? this.system.sheet_schema?.properties?.[listKey]?.items?.enum ?? [] : [];
    if (!numbers.length && !known.length) return null;
    const form = h("form", { class: "small-form hand", "aria-label": "Change the sheet by hand", dataset: { path: "edits" } });
    const why = h("input", { type: "text", maxlength: 200, placeholder: "e.g. took a blow from the bosun" });
    const send = (edit) => this.act(async () => {
      await post(`${this.base}/sheet`, { edits: [edit], ...(why.value.trim() ? { words: why.value } : {}) });
      await this.refresh();
    }, form);
    if (numbers.length) {
      const which = select(numbers, { dataset: { path: "edits.0.field" } });
      // No min/max here: the service's range check answers, beside this field.
      const amount = h("input", { type: "number", step: 1, value: -1, required: true, dataset: { path: "edits.0.delta" } });
      const apply = h("button", { type: "submit" }, "Apply");
      form.append(h("fieldset", {}, h("legend", {}, "Take or suffer"),
        field("Meter", which), field("By", amount, "+ to take, − to suffer"), apply));
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        send({ field: which.value, delta: Number(amount.value) });
      });
    }
    if (known.length) {
      const marked = new Set(sheet[listKey]);
      const which = select(known.map((k) => [k, `${words(k)}${marked.has(k) ? " (marked)" : ""}`]), { dataset: { path: "edits.0.add" } });
      const name = listKey === "impacts" ? "Impact" : "Condition";
      form.append(h("fieldset", {}, h("legend", {}, `${name}s`), field(name, which),
        h("div", { class: "buttons" },
          h("button", { type: "button", onclick: () => send({ field: listKey, add: which.value }) }, `Mark ${name.toLowerCase()}`),
          h("button", { type: "button", onclick: () => send({ field: listKey, remove: which.value }) }, `Clear ${name.toLowerCase()}`))));
    }
    form.append(field("Why (for the journal, optional)", why));
    return h("details", { class: "hand-edit" }, h("summary", {}, "Change the sheet by hand"), form);
  }

  /** The system's rests and recoveries (POST /rest), each with the sentence it applies. */
  restSection() {
    if (this.ended || !this.system.rests?.length) return null;
    const form = h("div", { class: "rests", dataset: { path: "kind" } });
    for (const rest of this.system.rests) {
      const hint = h("small", { class: "hint", id: uid("hint") }, rest.text);
      form.append(h("div", { class: "field" },
        h("button", { type: "button", "aria-describedby": hint.id, onclick: () => this.act(async () => {
          await post(`${this.base}/rest`, { kind: rest.id });
          await this.refresh();
        }, form) }, rest.name), hint));
    }
    return h("section", { class: "rest", "aria-labelledby": "rest-title" }, h("h3", { id: "rest-title" }, "Rest"), form);
  }

  trackForm() {
    const types = this.system.track_types;
    const type = select(types.map((t) => [t.id, t.name]), { dataset: { path: "type" } });
    const name = h("input", { type: "text", maxlength: 200, dataset: { path: "name" } });
    const rank = select([], { dataset: { path: "rank" } });
    const target = h("input", { type: "number", min: 1, max: 1000, dataset: { path: "target" } });
    const rankField = field("Rank", rank);
    const targetField = field("Target", target, "how many it takes");
    const sync = () => {
      const spec = types.find((t) => t.id === type.value);
      const ranks = Object.keys(spec.ranks);
      clear(rank, ranks.map((r) => h("option", { value: r }, words(r))));
      rankField.hidden = !ranks.length;
      targetField.hidden = Boolean(ranks.length) || spec.target !== null;
    };
    type.addEventListener("change", sync);
    sync();
    const form = h("form", { class: "small-form" }, field("Type", type), field("Name", name), rankField, targetField,
      h("button", { type: "submit" }, "Open track"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const spec = types.find((t) => t.id === type.value);
      const body = { type: type.value, name: name.value };
      if (Object.keys(spec.ranks).length) body.rank = rank.value;
      else if (target.value) body.target = Number(target.value);
      this.act(async () => { await post(`${this.base}/tracks`, body); await this.refresh(); }, form);
    });
    return h("details", {}, h("summary", {}, "Open a track (a vow, a fight…)"), form);
  }

  clockSection(clocks) {
    const section = h("section", { class: "clocks", "aria-labelledby": "clocks-title" }, h("h3", { id: "clocks-title" }, "Clocks"));
    const list = Object.values(clocks);
    if (!list.length) section.append(h("p", { class: "muted" }, "No clocks yet."));
    section.append(h("ul", {}, list.map((c) => h("li", { class: `clock ${c.status}`, dataset: { clock: c.id } },
      h("p", {}, h("strong", {}, c.name), ` · ${c.filled} of ${c.segments}${c.status !== "open" ? ` · ${c.status}` : ""}`),
      h("div", { class: "segments", role: "img", "aria-label": `${c.filled} of ${c.segments} segments filled` },
        Array.from({ length: c.segments }, (_, i) => h("span", { class: i < c.filled ? "on" : "" }))),
      c.status === "open" && !this.ended
        ? h("button", { type: "button", onclick: () => this.act(async () => { await post(`${this.base}/clocks/${encodeURIComponent(c.id)}/advance`, { by: 1 }); await this.refresh(); }) },
          h("span", { class: "sr-only" }, `${c.name}: `), "Advance")
        : null))));
    if (!this.ended) {
      const name = h("input", { type: "text", maxlength: 200, dataset: { path: "name" } });
      const segments = select([4, 6, 8, 10].map((n) => [n, `${n} segments`]), { dataset: { path: "segments" } });
      const form = h("form", { class: "small-form" }, field("Name", name), field("Segments", segments), h("button", { type: "submit" }, "Start clock"));
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        this.act(async () => { await post(`${this.base}/clocks`, { name: name.value, segments: Number(segments.value) }); await this.refresh(); }, form);
      });
      section.append(h("details", {}, h("summary", {}, "Start a clock"), form));
    }
    return section;
  }
}

/** A sheet value in a few words: a pool of dice, a list of wounds, an asset... */
function summary(value, depth = 0) {
  if (value === null || value === undefined || value === "") return "—";
  if (Array.isArray(value)) return value.length ? value.map((v) => summary(v, depth + 1)).join("; ") : "none";
  if (typeof value === "object") {
    const parts = Object.entries(value).filter(([, v]) => v !== null && v !== "" && !(Array.isArray(v) && !v.length));
    if (depth > 2) return parts.length ? "…" : "—";
    return parts.map(([k, v]) => `${words(k).toLowerCase()} ${summary(v, depth + 1)}`).join(", ") || "—";
  }
  return typeof value === "string" ? words(value) : String(value);
}

function progressBoxes(t) {
  if (t.counted || !t.rank) {
    const target = t.target ?? "?";
    return h("p", { class: "counted" }, `${t.units} of ${target}`);
  }
  const ticks = Math.max(0, Math.min(40, t.ticks));
  const boxes = Math.floor(ticks / 4);
  return h("div", { class: "boxes", role: "img", "aria-label": `progress ${boxes} of 10 boxes and ${ticks % 4} ticks (${ticks} ticks)` },
    Array.from({ length: 10 }, (_, i) => h("span", { class: `box t${Math.max(0, Math.min(4, ticks - 4 * i))}` })));
}

export function parseDice(text) {
  const dice = String(text ?? "").split(/[\s,]+/).filter(Boolean).map(Number);
  return dice.length && dice.every((d) => Number.isInteger(d)) ? dice : null;
}

function parseParams(text) {
  const params = {};
  for (const part of String(text ?? "").split(",")) {
    const m = /^\s*([a-z_][a-z0-9_]*)\s*=\s*(.+?)\s*$/i.exec(part);
    if (!m) continue;
    const raw = m[2];
    params[m[1]] = /^-?\d+$/.test(raw) ? Number(raw) : raw === "true" ? true : raw === "false" ? false : raw;
  }
  return params;
}

/** The move (or roll kind), stat, track, other parameters and hand-rolled dice of a turn. */
function rollSpec(play, initial) {
  const system = play.system;
  const kinds = system.roll_kinds.filter((k) => !["move", "expression"].includes(k.id));
  const what = h("select", {});
  if (initial.propose) what.append(h("option", { value: "" }, "Propose one from my words"));
  const groups = {};
  for (const move of play.moves) {
    groups[move.category] ??= h("optgroup", { label: `${words(move.category)} moves` });
    groups[move.category].append(h("option", { value: `move:${move.id}` }, move.name));
  }
  what.append(...Object.values(groups), h("optgroup", { label: "Rolls" }, kinds.map((k) => h("option", { value: `kind:${k.id}` }, words(k.id)))));
  what.value = initial.move ? `move:${initial.move}` : initial.kind && initial.kind !== "move" ? `kind:${initial.kind}` : what.options[0].value;
  const trigger = h("p", { class: "trigger", id: uid("trigger"), "aria-live": "polite" });
  what.setAttribute("aria-describedby", trigger.id);
  const stat = select([["", "—"], ...system.stats.map((s) => [s, words(s)])]);
  stat.value = initial.stat ?? "";
  const open = Object.values(play.session.state?.tracks ?? {}).filter((t) => t.status === "open");
  const track = select([["", "— none —"], ...open.map((t) => [t.id, t.name])]);
  const given = Object.entries(initial.params ?? {}).filter(([k]) => !["move", "stat"].includes(k)).map(([k, v]) => `${k}=${v}`).join(", ");
  const params = h("input", { type: "text", value: given, placeholder: "adds=1" });
  const dice = h("input", { type: "text", inputmode: "numeric", placeholder: "e.g. 4 3 8" });
  const diceHint = h("small", { class: "hint", id: uid("hint") });
  dice.setAttribute("aria-describedby", diceHint.id);
  const sync = () => {
    const [type, id] = what.value.split(":");
    const move = type === "move" ? play.moves.find((m) => m.id === id) : null;
    const kind = system.roll_kinds.find((k) => k.id === (move ? "move" : id));
    trigger.textContent = move ? `Trigger: ${move.trigger}` : kind ? kind.summary : "The words you write pick the move.";
    diceHint.textContent = kind ? `in this order: ${kind.dice_order}` : "";
  };
  what.addEventListener("change", sync);
  sync();
  const el = h("div", { class: "roll-spec" },
    field("Move or roll", what), trigger,
    system.stats.length ? field("Stat", stat) : null,
    open.length ? field("Track", track, "for a progress move or a move that marks progress") : null,
    field("Other parameters", params, "name=value, comma-separated (adds=1, tn=12, odds=likely)"),
    h("div", { class: "field" }, h("label", { for: (dice.id = uid()) }, "Dice you rolled by hand (optional)"), dice, diceHint));
  return {
    el,
    value() {
      const out = {};
      const [type, id] = what.value.split(":");
      const extra = parseParams(params.value);
      if (type === "move") out.move = id;
      else if (type === "kind") out.kind = id;
      if (stat.value && (type === "move" || type === "kind")) extra.stat = stat.value;
      if (Object.keys(extra).length) out.params = extra;
      if (track.value) out.track = track.value;
      const rolled = parseDice(dice.value);
      if (rolled) out.dice = rolled;
      return out;
    },
  };
}
