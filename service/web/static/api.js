// The public JSON API, and nothing else: /v1/... with the player's API key when one is needed.

const KEY = "fateweaver.apiKey";

export class ApiError extends Error {
  constructor(status, message, field) {
    super(message);
    this.status = status;
    this.field = field ?? null;
  }
}

export function apiKey() {
  return sessionStorage.getItem(KEY) || localStorage.getItem(KEY) || "";
}

export function setApiKey(key, remember) {
  forgetApiKey();
  (remember ? localStorage : sessionStorage).setItem(KEY, key);
}

export function forgetApiKey() {
  sessionStorage.removeItem(KEY);
  localStorage.removeItem(KEY);
}

function headers(extra = {}) {
  const out = { ...extra };
  const key = apiKey();
  if (key) out.authorization = `Bearer ${key}`;
  return out;
}

async function failure(response) {
  let message = `${response.status} ${response.statusText}`;
  let field = null;
  try {
    const body = await response.json();
    if (body?.error) ({ message, field } = body.error);
    else if (typeof body?.detail === "string") message = body.detail;
  } catch {
    /* not JSON: the status line says it */
  }
  return new ApiError(response.status, message, field);
}

async function send(method, path, body, accept = "application/json") {
  const init = { method, headers: headers({ accept }) };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  // A 429 is answered before the request runs (service/limits.py): waiting its Retry-After and
  // sending it again is safe, a POST too. A player clicking fast is slowed, not shown an error.
  for (let attempt = 0; ; attempt++) {
    try {
      response = await fetch(path, init);
    } catch (error) {
      throw new ApiError(0, `the service did not answer (${error.message})`);
    }
    if (response.status !== 429 || attempt >= RETRIES_ON_429) break;
    const wait = Math.min(Number(response.headers.get("retry-after")) || 1, 5);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  }
  if (!response.ok) throw await failure(response);
  return response;
}

const RETRIES_ON_429 = 3;

/** JSON, with integers past 2^53 (seeds) kept exact as their digits, not rounded. */
export function parseJson(text) {
  return JSON.parse(text, (key, value, context) =>
    typeof value === "number" && !Number.isSafeInteger(value) && Number.isInteger(value) && context?.source
      ? context.source
      : value);
}

async function json(response) {
  return response.status === 204 ? null : parseJson(await response.text());
}

export async function get(path) {
  return json(await send("GET", path));
}

export async function post(path, body) {
  return json(await send("POST", path, body));
}

export async function patch(path, body) {
  return json(await send("PATCH", path, body));
}

/** A file from the API (an export), as a Blob with the name the service gave it. */
export async function download(path, fallbackName) {
  const response = await send("GET", path, undefined, "*/*");
  const disposition = response.headers.get("content-disposition") || "";
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] || fallbackName;
  return { blob: await response.blob(), name };
}

/**
 * POST asking for server-sent events: `on.mechanics`, `on.token`, `on.discard`, `on.final`
 * are called as the events arrive. Resolves with the final event's data.
 */
export async function stream(path, body, on = {}) {
  const response = await send("POST", path, body ?? {}, "text/event-stream");
  if (!(response.headers.get("content-type") || "").includes("text/event-stream")) {
    const data = await json(response); // an idempotent replay, or a route that does not stream
    on.final?.(data);
    return data;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let final = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value.replace(/\r\n?/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const event = parseEvent(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (!event) continue;
      if (event.name === "final") final = event.data;
      on[event.name]?.(event.data);
    }
  }
  if (final === null) throw new ApiError(0, "the stream ended before its final event");
  return final;
}

function parseEvent(raw) {
  let name = "message";
  const data = [];
  for (const line of raw.split("\n")) {
    if (!line || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const key = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (key === "event") name = value;
    else if (key === "data") data.push(value);
  }
  return data.length ? { name, data: parseJson(data.join("\n")) } : null;
}

let systems = null;
/** GET /v1/systems, once per page. */
export async function allSystems() {
  systems ??= get("/v1/systems");
  return systems;
}
