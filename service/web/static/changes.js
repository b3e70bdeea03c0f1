// A state change in words a player reads: "Find my sister: progress +2 boxes", "Health −2",
// "Wounded marked", "Momentum 4 → 2", never the engine's keys ("tracks.t1 → 0").
//
// The records the engine and the session keep are {target, delta, set_to, note} (rules.models.
// StateChange); neither the terminal nor the journal export words them past "target +n (note)",
// so the page keeps this small mapping. `ctx` gives the names: the system's meters and the
// session's tracks and clocks. No DOM here: tests run it under node.

const MINUS = "\u2212";

function cap(text) {
  const s = String(text ?? "").replace(/_/g, " ").trim();
  return s ? s[0].toUpperCase() + s.slice(1) : "";
}

function has(v) {
  return v !== null && v !== undefined;
}

export function signed(n) {
  return n < 0 ? `${MINUS}${-n}` : `+${n}`;
}

function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** Ticks of a ranked track as boxes (four ticks a box): +8 -> "+2 boxes", +6 -> "+1 box 2 ticks". */
export function ticksWords(delta) {
  const n = Math.abs(delta);
  const sign = delta < 0 ? MINUS : "+";
  const boxes = Math.floor(n / 4);
  const ticks = n % 4;
  if (!boxes) return `${sign}${plural(ticks, "tick")}`;
  return `${sign}${plural(boxes, "box", "boxes")}${ticks ? ` ${plural(ticks, "tick")}` : ""}`;
}

const POSITION = { in_control: "in control", bad_spot: "in a bad spot" };

/** The words of one change. */
export function describeChange(c, ctx = {}) {
  const target = String(c.target ?? "");
  const note = has(c.note) && c.note !== "" ? String(c.note).replace(/_/g, " ") : "";
  const d = has(c.delta) ? c.delta : null;
  const s = has(c.set_to) ? c.set_to : null;
  const meters = ctx.meters ?? {};
  let used = false; // the note is said already
  const withNote = (text) => (note && !used ? `${text} (${note})` : text);
  const fromTo = (name) => `${name} ${s - d} \u2192 ${s}`;

  if (target.includes(":")) {
    const [what, tail] = target.split(":", 2);
    if (what === "legacy") {
      used = /^\+\d+ ticks$/.test(note);
      return withNote(`${cap(tail)} legacy: ${ticksWords(d ?? 0)}`);
    }
    used = true;
    return `${cap(what)} legacy: tenth box filled, cleared${s !== null && s > 1 ? ` (${s} times)` : ""}`;
  }
  const [head, ...rest] = target.split(".");
  const sub = rest.join(".");

  if (head === "tracks" && rest.length) {
    const track = ctx.tracks?.[rest[0]];
    const name = track?.name ?? cap(rest[0]);
    if (rest[1] === "hearts") return withNote(`${name}: hearts ${signed(d ?? 0)}`);
    if (rest[1] === "opponent") return withNote(`${name}: opponent's progress ${d !== null ? signed(d) : ""}`.trim());
    if (note.startsWith("opened")) {
      const kind = track ? [track.rank, cap(track.type).toLowerCase()].filter(Boolean).join(" ") : "track";
      return `${name}: ${kind} opened`;
    }
    if (d === null) return `${name}: ${note || (s !== null ? `set to ${s}` : "changed")}`;
    used = ["progress", `+${d} ticks`].includes(note) || note.startsWith("mark progress");
    const counted = track && (track.counted || !track.rank);
    return withNote(`${name}: progress ${counted ? signed(d) : ticksWords(d)}`);
  }
  if (head === "clocks" && rest.length) {
    const name = ctx.clocks?.[rest[0]]?.name ?? (note || cap(rest[0]));
    used = note === name;
    if (d === null) return withNote(`${name}: clock started`);
    return withNote(`${name}: ${signed(d)} ${Math.abs(d) === 1 ? "segment" : "segments"}`);
  }
  if ((head === "condition" || head === "conditions") && sub) {
    return withNote(`${cap(sub)}: ${s ? "marked" : "cleared"}`);
  }
  if (head === "momentum" && sub) {
    const where = sub === "dice" ? "Momentum dice" : `Momentum in ${sub.replace(/_/g, " ")}`;
    return withNote(`${where} ${signed(d ?? 0)}`);
  }
  if (head === "wounds") {
    used = true;
    if (sub === "vicious") return `Vicious wound: ${note || `${signed(d ?? 0)} session`}`;
    if (d !== null && d > 0) return note ? `Wound taken: ${note}` : `${plural(d, "wound")} taken`;
    if (d !== null && d < 0) return `${plural(-d, "wound")} healed${note ? ` (${note})` : ""}`;
  }
  if (head === "target" && sub) {
    const what = sub === "hearts" ? "The target's hearts" : "Effort on the target's heart";
    return withNote(`${what} ${signed(d ?? 0)}`);
  }

  switch (target) {
    case "position":
      used = true;
      return `Position: ${POSITION[c.note] ?? note}`;
    case "track_status":
      used = true;
      return `The track is ${note}`;
    case "rank":
      used = true;
      return `Rank raised to ${note}`;
    case "death":
      used = true;
      return `Death: ${note}`;
    case "progress_marks":
      used = note.startsWith("mark progress");
      return withNote(d === 1 ? "Mark progress" : `Mark progress \u00d7${d}`);
    case "next_roll_adds":
      if (d !== null) return withNote(`${signed(d)} on your next roll`);
      used = true;
      return "Adds held: used on this roll";
    case "tension_clock":
    case "clock":
      return withNote(`${target === "clock" ? "Clock" : "Tension clock"} ${signed(d ?? 0)} ${Math.abs(d ?? 0) === 1 ? "segment" : "segments"}`);
    case "beat":
      return withNote(`${signed(d ?? 0)} ${Math.abs(d ?? 0) === 1 ? "beat" : "beats"}`);
    case "impacts":
      if (note) {
        used = true;
        return cap(note);
      }
      break;
    case "progress":
    case "opponent_progress": {
      const name = target === "progress" ? "Progress" : "Opponent's progress";
      if (s !== null && d !== null) return withNote(fromTo(name));
      if (s !== null) return withNote(`${name} set to ${s}`);
      used = note.startsWith("mark progress") || note === `+${d} ticks`;
      if (d !== null) return withNote(`${name} ${ticksWords(d)}`);
      break;
    }
    default:
      break;
  }

  // A meter, a stat, an impact or any other field of the sheet (dotted: meters.blood).
  const leaf = rest.length ? rest[rest.length - 1] : head;
  const meter = meters[leaf] ?? meters[head];
  const name = meter ?? cap(leaf);
  const number = meter !== undefined || target === "momentum" || target === "experience";
  if (s !== null && d !== null) return withNote(fromTo(name));
  if (d === 0) return withNote(`${name} unchanged`);
  if (d !== null) return withNote(`${name} ${signed(d)}`);
  if (s !== null) {
    if (!number && (s === 0 || s === 1)) {
      used = note === `${s ? "mark" : "clear"} ${leaf.replace(/_/g, " ")}`;
      return withNote(`${name} ${s ? "marked" : "cleared"}`);
    }
    return withNote(`${name} set to ${s}`);
  }
  if (note) {
    used = true;
    return `${name}: ${note}`;
  }
  return name;
}

/** The words of each change, the same words said once. */
export function describeChanges(changes, ctx = {}) {
  return [...new Set((changes ?? []).map((c) => describeChange(c, ctx)))];
}

/** The names a change's words use: the system's meters, the session's tracks and clocks. */
export function changeContext(system, state) {
  return {
    meters: Object.fromEntries((system?.meters ?? []).map((m) => [m.id, m.name])),
    tracks: state?.tracks ?? {},
    clocks: state?.clocks ?? {},
  };
}
