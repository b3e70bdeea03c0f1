// The dice card of a resolution, and the tools beside the story: the oracle, the tables and the
// rules chat (its citations open the cited passage).

import { stream } from "./api.js";
import { describeChanges } from "./changes.js";
import { append, clear, errorBox, field, h, paragraphs, select, uid, words } from "./dom.js";

/** Every die (cancelled, rerolled, not kept marked), the scores, the outcome and the changes. */
export function diceCard(res, ctx = {}) {
  const dice = (res.dice ?? []).map((d) => {
    const marks = [d.cancelled && "cancelled", d.rerolled && "rerolled", d.kept === false && "not kept"].filter(Boolean);
    return h("li", { class: ["die", `d${d.sides}`, d.role, ...marks.map((m) => m.replace(" ", "-"))].join(" ") },
      h("span", { class: "value" }, d.value),
      h("span", { class: "role" }, d.role === `d${d.sides}` ? ` d${d.sides}` : ` ${words(d.role.replace(/^table:/, ""))} d${d.sides}`),
      marks.length ? h("span", { class: "mark" }, ` (${marks.join(", ")})`) : null);
  });
  const scores = Object.entries(res.scores ?? {}).filter(([, v]) => v !== null && v !== undefined);
  const outcome = res.outcome ?? res.details?.answer;
  return h("div", { class: "dice-card", dataset: { outcome: outcome ?? "" } },
    dice.length ? h("ul", { class: "dice", "aria-label": "Dice" }, dice) : null,
    scores.length ? h("p", { class: "scores" }, scores.map(([k, v]) => `${words(k)} ${v}`).join(" · ")) : null,
    outcome ? h("p", { class: "outcome" },
      h("strong", { class: `band ${outcome}` }, words(outcome)),
      res.match ? h("span", { class: "badge match" }, "match") : null) : null,
    res.text ? h("blockquote", { class: "rule" }, paragraphs(res.text),
      res.citation ? h("footer", {}, h("cite", {}, `${res.citation.source}, ${res.citation.heading}`)) : null) : null,
    res.changes?.length ? changeList(res.changes, ctx) : null,
    res.seed !== null && res.seed !== undefined ? h("p", { class: "seed muted" }, `seed ${res.seed}`) : h("p", { class: "seed muted" }, "dice rolled by hand"));
}

/** The changes of a turn or a roll, in words (changes.js). */
export function changeList(changes, ctx = {}) {
  return h("ul", { class: "changes", "aria-label": "Changes" }, describeChanges(changes, ctx).map((text) => h("li", {}, text)));
}

/** Streams a narrated answer into `out`: the mechanics, then the words as they come. */
async function told(path, body, out, mechanics) {
  const text = document.createTextNode("");
  const words_ = h("div", { class: "narration streaming", "aria-live": "polite" }, h("p", {}, text));
  let current = text;
  const final = await stream(path, body, {
    mechanics: (data) => {
      clear(out, mechanics(data), words_);
    },
    token: ({ text: piece }) => current.appendData(piece),
    discard: ({ reason }) => {
      current = document.createTextNode("");
      clear(words_, h("p", { class: "withdrawn muted" }, `(Withdrawn: ${reason})`), h("p", {}, current));
    },
  });
  words_.classList.remove("streaming");
  clear(words_, paragraphs(final.narration ?? final.answer));
  return { final, narration: words_ };
}

export function tools(play) {
  return h("section", { class: "tools", "aria-labelledby": "tools-title" },
    h("h2", { id: "tools-title" }, "Oracle, tables and rules"),
    h("div", { class: "tool-grid" }, oracle(play), tablesTool(play), rulesChat(play)));
}

function oracle(play) {
  const system = play.system;
  const odds = system.roll_kinds.find((k) => k.id === "oracle")?.params_schema?.properties?.odds;
  const question = h("input", { type: "text", maxlength: 500, name: "question" });
  const oddsSelect = select((odds?.enum ?? ["50_50"]).map((o) => [o, words(o).replace("50 50", "50/50")]));
  oddsSelect.value = odds?.default ?? "50_50";
  const context = h("input", { type: "text", maxlength: 1000 });
  const out = h("div", { class: "tool-out" });
  const form = h("form", { "aria-labelledby": "oracle-title" },
    field("Your yes/no question", question),
    field("Odds", oddsSelect),
    field("The situation (optional)", context),
    h("button", { type: "submit", class: "primary" }, "Ask the oracle"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const body = { system: system.id, question: question.value, odds: oddsSelect.value };
    if (context.value.trim()) body.context = context.value;
    run(out, async () => {
      await told("/v1/oracle", body, out, (m) => h("div", { class: "oracle-answer" },
        h("p", { class: "answer" }, "The oracle says: ", h("strong", {}, words(m.resolution?.outcome ?? m.answer)),
          m.resolution?.match ? h("span", { class: "badge match" }, "match: an extreme result or a twist") : null),
        diceCard(m.resolution ?? m)));
    });
  });
  return h("section", { class: "card tool", "aria-labelledby": "oracle-title" }, h("h3", { id: "oracle-title" }, "Ask the oracle"), form, out);
}

function tablesTool(play) {
  const table = select(play.tables.map((t) => [t.id, `${t.name} (${t.dice})`]));
  const situation = h("input", { type: "text", maxlength: 1000 });
  const out = h("div", { class: "tool-out" });
  const form = h("form", {},
    field("Table", table, `${play.tables.length} tables in ${play.system.name}`),
    field("The situation (optional)", situation),
    h("button", { type: "submit", class: "primary" }, "Roll on the table"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const body = { system: play.system.id, table: table.value };
    if (situation.value.trim()) body.situation = situation.value;
    run(out, async () => {
      await told("/v1/oracle/spark", body, out, (m) => h("div", { class: "table-result" },
        h("p", {}, "Rolled on ", h("strong", {}, play.tables.find((t) => t.id === table.value)?.name ?? table.value)),
        m.rows ? h("ul", { class: "rows" }, m.rows.map((r) => h("li", {}, r))) : null,
        diceCard(m.resolution ?? m)));
    });
  });
  if (!play.tables.length) return h("section", { class: "card tool" }, h("h3", {}, "Tables"), h("p", { class: "muted" }, "This system has no tables."));
  return h("section", { class: "card tool", "aria-labelledby": "tables-title" }, h("h3", { id: "tables-title" }, "Roll on a table"), form, out);
}

function rulesChat(play) {
  const history = [];
  const log = h("ol", { class: "chat", "aria-label": "Rules chat" });
  const question = h("textarea", { rows: 2, maxlength: 2000 });
  const out = h("div", { class: "tool-out" });
  const form = h("form", {},
    field("Ask about the rules", question, `answered from the ${play.system.name} texts, with citations`),
    h("button", { type: "submit", class: "primary" }, "Ask"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!question.value.trim()) return;
    const asked = question.value;
    const messages = [...history, { role: "user", content: asked }];
    const answer = h("li", { class: "assistant" });
    log.append(h("li", { class: "user" }, h("span", { class: "who" }, "You: "), asked), answer);
    question.value = "";
    run(out, async () => {
      const { final } = await told("/v1/rules/ask", { system: play.system.id, messages }, answer, () => h("span", { class: "who" }, "Rules: "));
      clear(answer, h("span", { class: "who" }, "Rules: "), cited(final));
      history.push({ role: "user", content: asked }, { role: "assistant", content: final.answer });
    }, answer);
  });
  return h("section", { class: "card tool chat-tool", "aria-labelledby": "rules-title" }, h("h3", { id: "rules-title" }, "Rules chat"), log, form, out);
}

/** An answer whose [P1] marks are buttons that open the passage cited. */
function cited(final) {
  const passages = Object.fromEntries((final.passages ?? []).map((p) => [p.tag, p]));
  const body = h("div", { class: "answer-text" });
  for (const para of String(final.answer ?? "").split(/\n\s*\n/)) {
    const p = h("p");
    for (const part of para.split(/(\[P\d+\])/)) {
      const tag = /^\[(P\d+)\]$/.exec(part)?.[1];
      if (tag && passages[tag]) {
        const c = passages[tag].citation;
        p.append(h("button", { type: "button", class: "cite", "aria-label": `Open passage ${tag}: ${c.source}, ${c.heading}`, onclick: () => openPassage(passages[tag]) }, `[${tag}]`));
      } else if (part) p.append(part);
    }
    body.append(p);
  }
  if (final.passages?.length) {
    body.append(h("details", { class: "sources" }, h("summary", {}, `Passages searched (${final.passages.length})`),
      h("ul", {}, final.passages.map((p) => h("li", {}, h("button", { type: "button", class: "link", onclick: () => openPassage(p) }, `${p.tag}: ${p.citation.source}, ${p.citation.heading}`))))));
  }
  return body;
}

function openPassage(passage) {
  const dialog = document.getElementById("passage");
  const close = h("button", { type: "button", onclick: () => dialog.close() }, "Close");
  clear(dialog,
    h("h2", { id: "passage-title" }, `${passage.tag}: ${passage.citation.heading}`),
    h("p", { class: "muted" }, passage.citation.source),
    h("blockquote", { class: "passage-text" }, paragraphs(passage.text)),
    close);
  dialog.showModal();
  close.focus();
}

async function run(out, work, where = out) {
  try {
    await work();
  } catch (error) {
    append(where, errorBox(error));
  }
}

export { uid };
