import "./style.css";
import { ApiError, api, get, headers, problemOf, query, setSession, upload } from "./api";
import type { Session } from "./api";
import { clip, markdownLine } from "./markdown";

// ---------------------------------------------------------------------------------------
// DOM helpers: every text goes in as text (never as HTML).

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | ((e: Event) => void) | undefined | null>;

function h(tag: string, attrs: Attrs = {}, ...children: (Child | Child[])[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

/** `1 message`, `2 messages`: a count with its noun in the right number (thousands grouped). */
function counted(n: unknown, singular: string, plural = `${singular}s`): string {
  const value = Number(n);
  return `${value.toLocaleString("en")} ${value === 1 ? singular : plural}`;
}

const SVG = "http://www.w3.org/2000/svg";
function s(tag: string, attrs: Record<string, string | number> = {}, ...children: (Node | string)[]): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

const main = document.getElementById("main")!;
const nav = document.getElementById("nav")!;
const statusBox = document.getElementById("status")!;

function say(text: string): void {
  statusBox.textContent = text;
}

function fmtDate(v: unknown): string {
  if (typeof v !== "string" || !v) return "—";
  return v.replace("T", " ").replace(/(\.\d+)?(Z|\+00:00)$/, " UTC");
}

function errorBox(e: unknown): HTMLElement {
  const text = e instanceof ApiError ? `${e.problem.title}: ${e.problem.detail}` : String(e);
  return h("p", { class: "error", role: "alert" }, text);
}

function render(title: string, ...content: (Child | Child[])[]): void {
  document.title = `${title} · memvault`;
  main.dataset.shown = location.hash || "#/memories";
  main.replaceChildren(h("h1", { id: "view-title", tabindex: "-1" }, title), ...content.flat().filter((c): c is Node | string => !!c || c === 0).map((c) => (c instanceof Node ? c : String(c))));
}

// A view shows what it fetched only if no later view started meanwhile (the answers of
// an earlier view's requests may arrive after a later one's).
let ticket = 0;
function painter(): typeof render {
  const mine = ticket;
  return (title, ...content) => {
    if (mine === ticket) render(title, ...content);
  };
}

function focusTitle(): void {
  document.getElementById("view-title")?.focus();
}

// ---------------------------------------------------------------------------------------
// Types of the API's answers (the parts the page reads).

type Json = Record<string, any>;
interface Meta {
  memory_types: string[];
  statuses: string[];
  relation_types: string[];
  transitions: Record<string, string[]>;
}
let meta: Meta;
let session: Session;

// ---------------------------------------------------------------------------------------
// Routing: #/view/arg?query

const VIEWS: [string, string][] = [
  ["memories", "Memories"],
  ["search", "Search"],
  ["conversations", "Conversations"],
  ["graph", "Graph"],
  ["time", "Time"],
  ["review", "Review"],
  ["audit", "Audit"],
  ["move", "Move"],
  ["erase", "Erase"],
];

function route(): { view: string; arg: string; params: URLSearchParams } {
  const hash = location.hash.replace(/^#\/?/, "");
  const [path, q] = hash.split("?", 2);
  const [view, ...rest] = path.split("/");
  return { view: view || "memories", arg: decodeURIComponent(rest.join("/")), params: new URLSearchParams(q ?? "") };
}

function go(hash: string): void {
  if (location.hash === hash) void show();
  else location.hash = hash;
}

function buildNav(): void {
  const list = h("ul");
  for (const [id, label] of VIEWS) {
    list.append(h("li", {}, h("a", { href: `#/${id}`, "data-view": id }, label)));
  }
  list.append(h("li", {}, h("button", { type: "button", class: "link", onclick: signOut }, "Sign out")));
  nav.replaceChildren(list);
  nav.hidden = false;
}

function markNav(view: string): void {
  const current = view === "memory" ? "memories" : view === "conversation" ? "conversations" : view;
  for (const a of nav.querySelectorAll("a")) {
    if (a.dataset.view === current) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
}

async function show(): Promise<void> {
  const { view, arg, params } = route();
  const mine = ++ticket;
  markNav(view);
  say("");
  try {
    switch (view) {
      case "memories": await memoriesView(params); break;
      case "memory": await memoryView(arg); break;
      case "search": await searchView(params); break;
      case "conversations": await conversationsView(params); break;
      case "conversation": await conversationView(arg); break;
      case "graph": await graphView(); break;
      case "time": await timeView(); break;
      case "review": await reviewView(); break;
      case "audit": await auditView(); break;
      case "move": moveView(); break;
      case "erase": eraseView(); break;
      default: render("Not found", h("p", {}, "No such view."));
    }
  } catch (e) {
    if (mine !== ticket) return;
    if (e instanceof ApiError && e.problem.status === 401) return signInView(false);
    render("Something went wrong", errorBox(e));
  }
  if (mine !== ticket) return;
  // A view that put the focus somewhere itself (search's field) keeps it.
  if (!main.contains(document.activeElement)) focusTitle();
}

// ---------------------------------------------------------------------------------------
// Sign-in

function signInView(failed: boolean): void {
  nav.hidden = true;
  const input = h("input", { id: "token", name: "token", type: "password", autocomplete: "current-password", required: true }) as HTMLInputElement;
  const form = h(
    "form",
    { class: "card", onsubmit: async (e: Event) => {
      e.preventDefault();
      try {
        const s = await api<Session>("POST", "/v1/session", { token: input.value });
        await start(s);
      } catch (err) {
        form.append(errorBox(err));
      }
    } },
    h("p", {}, "Open the address ", h("code", {}, "memvault serve"), " printed, or paste the vault's token (", h("code", {}, "memvault token"), " prints it)."),
    h("div", { class: "field sign-in" }, h("label", { for: "token" }, "Token"), input),
    h("button", { type: "submit" }, "Sign in"),
  );
  render("Sign in", failed ? h("p", { class: "error", role: "alert" }, "That token did not work.") : null, form);
  input.focus();
}

async function signOut(): Promise<void> {
  await api("DELETE", "/v1/session");
  location.hash = "";
  signInView(false);
}

// ---------------------------------------------------------------------------------------
// Memories

function field(label: string, control: HTMLElement): HTMLElement {
  const id = control.id;
  return h("div", { class: "field" }, h("label", { for: id }, label), control);
}

function select(id: string, options: string[], value: string, empty?: string): HTMLSelectElement {
  const el = h("select", { id, name: id }) as HTMLSelectElement;
  if (empty !== undefined) el.append(h("option", { value: "" }, empty));
  for (const o of options) el.append(h("option", { value: o }, o));
  el.value = value;
  return el;
}

function input(id: string, value: string, attrs: Attrs = {}): HTMLInputElement {
  return h("input", { id, name: id, value, ...attrs }) as HTMLInputElement;
}

function memoryRow(m: Json): HTMLElement {
  const conf = m.confidence?.current;
  return h(
    "tr",
    {},
    h("td", { class: "wrap" }, h("a", { href: `#/memory/${encodeURIComponent(m.id)}` }, markdownLine(m.content, 160))),
    h("td", {}, m.type === "custom" && m.custom_type ? `custom: ${m.custom_type}` : m.type),
    h("td", {}, h("span", { class: `badge ${m.status ?? "active"}` }, m.status ?? "active")),
    h("td", {}, m.provenance?.platform ?? "—"),
    h("td", { class: "num" }, typeof conf === "number" ? conf.toFixed(2) : "—"),
    h("td", { class: "date" }, fmtDate(m.temporal?.created_at).slice(0, 10)),
  );
}

function memoryTable(memories: Json[], caption: string): HTMLElement {
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      { class: "memory-list" },
      h("caption", { class: "sr-only" }, caption),
      h("thead", {}, h("tr", {}, ...["Memory", "Type", "Status", "Platform", "Confidence", "Created"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, ...memories.map(memoryRow)),
    ),
  );
}

const PAGE = 50;

async function memoriesView(params: URLSearchParams): Promise<void> {
  const paint = painter();
  const type = params.get("type") ?? "";
  const status = params.get("status") ?? "active";
  const platform = params.get("platform") ?? "";
  const tag = params.get("tag") ?? "";
  const since = params.get("since") ?? "";
  const until = params.get("until") ?? "";
  // Confidence bounds (inclusive) on the stored confidence.current (PAM §8).
  const minConf = params.get("min_confidence") ?? "";
  const maxConf = params.get("max_confidence") ?? "";
  const filters = { type, status, platform, tag, since, until, min_confidence: minConf, max_confidence: maxConf };
  const offset = Number(params.get("offset") ?? "0") || 0;
  const page = await get<Json>("/v1/memories" + query({ ...filters, limit: PAGE, offset }));
  const typeSel = select("f-type", meta.memory_types, type, "any type");
  const statusSel = select("f-status", [...meta.statuses, "all"], status);
  const platformIn = input("f-platform", platform, { placeholder: "chatgpt" });
  const tagIn = input("f-tag", tag);
  const sinceIn = input("f-since", since, { type: "date" });
  const untilIn = input("f-until", until, { type: "date" });
  const bound = { type: "number", min: 0, max: 1, step: 0.05, inputmode: "decimal", class: "narrow" };
  const minIn = input("f-min-conf", minConf, { ...bound, placeholder: "0" });
  const maxIn = input("f-max-conf", maxConf, { ...bound, placeholder: "1" });
  maxIn.addEventListener("input", () => maxIn.setCustomValidity(""));
  const form = h(
    "form",
    { class: "filters", role: "search", "aria-label": "Filter memories", onsubmit: (e: Event) => {
      e.preventDefault();
      // A lower bound above the upper one could match nothing: say so at the field.
      const crossed = minIn.value !== "" && maxIn.value !== "" && Number(minIn.value) > Number(maxIn.value);
      maxIn.setCustomValidity(crossed ? "The upper bound is below the lower one." : "");
      if (!maxIn.reportValidity()) return;
      go("#/memories" + query({ type: typeSel.value, status: statusSel.value, platform: platformIn.value.trim(), tag: tagIn.value.trim(), since: sinceIn.value, until: untilIn.value, min_confidence: minIn.value, max_confidence: maxIn.value }));
    } },
    field("Type", typeSel),
    field("Status", statusSel),
    field("Platform", platformIn),
    field("Tag", tagIn),
    field("Created from", sinceIn),
    field("Created until", untilIn),
    field("Confidence at least", minIn),
    field("Confidence at most", maxIn),
    h("div", { class: "field actions" }, h("button", { type: "submit" }, "Filter")),
  );
  const total: number = page.total;
  const here = (o: number): string => "#/memories" + query({ ...filters, offset: o || undefined });
  const pager = h(
    "nav",
    { class: "pager", "aria-label": "Pages" },
    h("span", { id: "range" }, total ? `${(offset + 1).toLocaleString("en")}–${Math.min(offset + PAGE, total).toLocaleString("en")} of ${total.toLocaleString("en")}` : "No memories match."),
    offset > 0 ? h("a", { href: here(Math.max(0, offset - PAGE)), rel: "prev" }, "Previous") : null,
    offset + PAGE < total ? h("a", { href: here(offset + PAGE), rel: "next" }, "Next") : null,
  );
  paint("Memories", form, pager, total ? memoryTable(page.memories, "Memories") : null);
}

function dl(rows: [string, Child | Child[]][]): HTMLElement {
  const out = h("dl", { class: "facts" });
  for (const [k, v] of rows) out.append(h("dt", {}, k), h("dd", {}, ...(Array.isArray(v) ? v : [v ?? "—"])));
  return out;
}

async function memoryView(id: string): Promise<void> {
  const paint = painter();
  const [m, relations] = await Promise.all([
    get<Json>(`/v1/memories/${encodeURIComponent(id)}`),
    get<Json[]>(`/v1/memories/${encodeURIComponent(id)}/relations`),
  ]);
  const status: string = m.status ?? "active";
  const p = m.provenance ?? {};
  const t = m.temporal ?? {};
  const c = m.confidence ?? {};
  const a = m.access ?? {};
  const conv = p.conversation_ref
    ? h("a", { href: `#/conversation/${encodeURIComponent(p.conversation_ref)}` }, p.conversation_ref)
    : "—";
  const relList = relations.length
    ? h("ul", {}, ...relations.map((r) => {
        const other = r.from === m.id ? r.to : r.from;
        const dir = r.from === m.id ? `${r.type} →` : `← ${r.type}`;
        return h("li", {}, `${dir} `, h("a", { href: `#/memory/${encodeURIComponent(other)}` }, other));
      }))
    : h("p", {}, "No relations.");

  const facts = h(
    "section",
    { "aria-labelledby": "h-facts" },
    h("h2", { id: "h-facts" }, "About this memory"),
    dl([
      ["Content", h("p", { class: "content" }, m.content)],
      ["Type", m.type === "custom" ? `custom: ${m.custom_type ?? ""}` : m.type],
      ["Status", h("span", { class: `badge ${status}` }, status)],
      ["Tags", (m.tags ?? []).length ? (m.tags as string[]).join(", ") : "—"],
      ["Id", h("code", {}, m.id)],
    ]),
    h("h3", {}, "Provenance"),
    dl([
      ["Platform", p.platform ?? "—"],
      ["Conversation", conv],
      ["Message", p.message_ref ?? "—"],
      ["Extraction", p.extraction_method ?? "—"],
      ["Extracted", fmtDate(p.extracted_at)],
    ]),
    h("h3", {}, "Time"),
    dl([
      ["Created", fmtDate(t.created_at)],
      ["Updated", fmtDate(t.updated_at)],
      ["Valid from", fmtDate(t.valid_from)],
      ["Valid until", fmtDate(t.valid_until)],
    ]),
    h("h3", {}, "Confidence"),
    dl([
      ["Initial", typeof c.initial === "number" ? c.initial.toFixed(2) : "—"],
      ["Current (after decay)", typeof c.current === "number" ? c.current.toFixed(2) : "—"],
      ["Decay model", c.decay_model ?? "—"],
      ["Last reinforced", fmtDate(c.last_reinforced)],
    ]),
    h("h3", {}, "Access"),
    dl([
      ["Visibility", a.visibility ?? "private"],
      ["Exportable", a.exportable === false ? "no" : "yes"],
      ["Shared with", (a.shared_with ?? []).length ? (a.shared_with as Json[]).map((g) => `${g.entity} (${(g.permissions ?? []).join(", ")})`).join("; ") : "nobody"],
    ]),
    h("h3", {}, "Relations"),
    relList,
  );
  paint(`Memory`, facts, correctSection(m, status));
}

function correctSection(m: Json, status: string): HTMLElement {
  const path = `/v1/memories/${encodeURIComponent(m.id)}`;
  const reload = (): void => go(`#/memory/${encodeURIComponent(m.id)}`);
  const done = async (what: string, f: () => Promise<unknown>, out: HTMLElement): Promise<void> => {
    try {
      await f();
      say(what);
      reload();
    } catch (e) {
      out.replaceChildren(errorBox(e));
    }
  };
  const out = h("div");
  const content = h("textarea", { id: "e-content", name: "content", rows: 4 }, m.content) as HTMLTextAreaElement;
  const tags = input("e-tags", (m.tags ?? []).join(", "));
  const type = select("e-type", meta.memory_types.filter((t) => t !== "custom" || m.type === "custom"), m.type);
  const exportable = h("input", { id: "e-exportable", name: "exportable", type: "checkbox", checked: m.access?.exportable !== false }) as HTMLInputElement;
  const editable = status === "active";
  const edit = h(
    "form",
    { class: "card", "aria-labelledby": "h-edit", onsubmit: (e: Event) => {
      e.preventDefault();
      const patch: Json = {
        content: content.value,
        tags: tags.value.split(",").map((x) => x.trim()).filter(Boolean),
        exportable: exportable.checked,
      };
      if (type.value !== m.type) patch.type = type.value;
      void done("Saved.", () => api("PATCH", path, patch), out);
    } },
    h("h3", { id: "h-edit" }, "Edit"),
    field("Content", content),
    field("Tags (comma-separated)", tags),
    field("Type", type),
    h("div", { class: "check" }, exportable, h("label", { for: "e-exportable" }, "Exportable (included in exports)")),
    h("button", { type: "submit" }, "Save changes"),
  );
  // Only the transitions PAM §7.1 allows from this status (the server's table).
  const allowed = meta.transitions[status] ?? [];
  const verbs: Record<string, string> = { retracted: "retract", archived: "archive", deprecated: "deprecate", superseded: "supersede" };
  const lifecycle = h("div", { class: "card", role: "group", "aria-labelledby": "h-life" }, h("h3", { id: "h-life" }, "Lifecycle"));
  if (!allowed.length) lifecycle.append(h("p", {}, `A ${status} memory takes no further transition (PAM §7.1).`));
  for (const to of allowed) {
    const verb = verbs[to];
    if (verb === "supersede") {
      const by = input("e-by", "", { placeholder: "id of the replacing memory" });
      lifecycle.append(h("form", { class: "inline", onsubmit: (e: Event) => {
        e.preventDefault();
        void done("Superseded.", () => api("POST", `${path}/supersede`, { by: by.value.trim() }), out);
      } }, field("Superseded by", by), h("button", { type: "submit" }, "Supersede")));
    } else {
      lifecycle.append(h("button", { type: "button", class: verb === "retract" ? "danger" : "", onclick: () => {
        void done(`${verb[0].toUpperCase()}${verb.slice(1)}d.`, () => api("POST", `${path}/${verb}`), out);
      } }, verb[0].toUpperCase() + verb.slice(1)));
    }
  }
  const relTo = input("r-to", "", { placeholder: "memory id" });
  const relType = select("r-type", meta.relation_types.filter((t) => t !== "supersedes"), "related_to");
  const relate = h(
    "form",
    { class: "card", "aria-labelledby": "h-rel", onsubmit: (e: Event) => {
      e.preventDefault();
      void done("Related.", () => api("POST", `${path}/relations`, { to: relTo.value.trim(), type: relType.value }), out);
    } },
    h("h3", { id: "h-rel" }, "Add a relation"),
    field("Relation", relType),
    field("To memory", relTo),
    h("button", { type: "submit" }, "Relate"),
  );
  return h(
    "section",
    { "aria-labelledby": "h-correct" },
    h("h2", { id: "h-correct" }, "Correct"),
    out,
    editable ? edit : h("p", {}, `A ${status} memory is not edited; it is kept as it was.`),
    lifecycle,
    relate,
    h("p", {}, h("a", { href: `#/audit?memory=${encodeURIComponent(m.id)}` }, "This memory's audit trail")),
  );
}

// ---------------------------------------------------------------------------------------
// Search (recall: memories and messages)

async function searchView(params: URLSearchParams): Promise<void> {
  const paint = painter();
  const q = params.get("q") ?? "";
  const kind = params.get("kind") ?? "all";
  const qIn = input("s-q", q, { type: "search", required: true });
  const kindSel = select("s-kind", ["all", "memories", "messages"], kind);
  const form = h(
    "form",
    { class: "filters", role: "search", "aria-label": "Recall", onsubmit: (e: Event) => {
      e.preventDefault();
      go("#/search" + query({ q: qIn.value.trim(), kind: kindSel.value }));
    } },
    field("Question or words", qIn),
    field("Find", kindSel),
    h("div", { class: "field actions" }, h("button", { type: "submit" }, "Search")),
  );
  if (!q) {
    paint("Search", form);
    qIn.focus();
    return;
  }
  const result = await get<Json>("/v1/recall" + query({ q, kind, k: 30 }));
  const items = (result.results as Json[]).map((r) =>
    h(
      "li",
      { class: "hit" },
      h("span", { class: `badge kind-${r.kind}` }, r.kind === "memory" ? "memory" : "message"),
      " ",
      r.kind === "memory"
        ? h("a", { href: `#/memory/${encodeURIComponent(r.id)}` }, markdownLine(r.text, 240))
        : h("a", { href: `#/conversation/${encodeURIComponent(r.conversation_id)}` }, clip(r.text, 160)),
    ),
  );
  paint(
    "Search",
    form,
    h("p", { id: "hits" }, `${items.length} result${items.length === 1 ? "" : "s"} for “${q}”.`),
    ...(result.notes as string[]).map((n) => h("p", { class: "note" }, n)),
    h("ol", { class: "hits", "aria-labelledby": "hits" }, ...items),
  );
}

// ---------------------------------------------------------------------------------------
// Conversations

async function conversationsView(params: URLSearchParams): Promise<void> {
  const paint = painter();
  const offset = Number(params.get("offset") ?? "0") || 0;
  const page = await get<Json>("/v1/conversations" + query({ limit: PAGE, offset }));
  const rows = (page.conversations as Json[]).map((c) =>
    h("tr", {}, h("td", {}, h("a", { href: `#/conversation/${encodeURIComponent(c.id)}` }, c.title || "(untitled)")), h("td", {}, c.platform), h("td", { class: "num" }, c.message_count), h("td", { class: "date" }, fmtDate(c.created_at).slice(0, 10))),
  );
  const total: number = page.total;
  const pager = h(
    "nav",
    { class: "pager", "aria-label": "Pages" },
    h("span", {}, total ? `${offset + 1}–${Math.min(offset + PAGE, total)} of ${total}` : "No conversations yet: import an export under Move."),
    offset > 0 ? h("a", { href: `#/conversations?offset=${Math.max(0, offset - PAGE)}` }, "Previous") : null,
    offset + PAGE < total ? h("a", { href: `#/conversations?offset=${offset + PAGE}` }, "Next") : null,
  );
  paint(
    "Conversations",
    pager,
    total
      ? h("div", { class: "table-wrap" }, h("table", { class: "memory-list" }, h("caption", { class: "sr-only" }, "Conversations"), h("thead", {}, h("tr", {}, ...["Title", "Platform", "Messages", "Created"].map((t) => h("th", { scope: "col" }, t)))), h("tbody", {}, ...rows)))
      : null,
  );
}

function messageText(m: Json): string {
  const c = m.content;
  if (typeof c === "string") return c;
  if (c && typeof c.text === "string") return c.text;
  if (Array.isArray(c?.parts)) return c.parts.map((p: unknown) => (typeof p === "string" ? p : "")).join("\n");
  return "";
}

async function conversationView(id: string): Promise<void> {
  const paint = painter();
  const [doc, derived] = await Promise.all([
    get<Json>(`/v1/conversations/${encodeURIComponent(id)}`),
    get<Json>(`/v1/conversations/${encodeURIComponent(id)}/memories`),
  ]);
  const messages: Json[] = doc.messages ?? [];
  const byId = new Map(messages.map((m) => [m.id as string, m]));
  // ChatGPT keeps a tree: a message edited or regenerated forks it. The thread shown follows
  // the newest branch at each fork; a fork offers its other branches.
  const children = new Map<string, string[]>();
  const roots: string[] = [];
  for (const m of messages) {
    const parent = m.parent_id as string | undefined;
    if (parent && byId.has(parent)) {
      const list = children.get(parent) ?? [];
      list.push(m.id);
      children.set(parent, list);
    } else roots.push(m.id);
  }
  const choice = new Map<string, number>();
  const thread = h("ol", { class: "thread", "aria-label": "Messages" });
  const draw = (): void => {
    thread.replaceChildren();
    const seen = new Set<string>();
    // Messages without a parent here (exports that keep no tree, or whose first parent is
    // outside the conversation) each start a chain: every chain is shown, in order.
    for (const root of roots) walk(root, seen);
  };
  const walk = (root: string, seen: Set<string>): void => {
    let current: string | undefined = root;
    while (current && !seen.has(current)) {
      seen.add(current);
      const m = byId.get(current)!;
      const kids: string[] = children.get(current) ?? [];
      // ChatGPT starts every conversation with an empty, hidden system message: nothing to show.
      if (m.role === "system" && !messageText(m).trim() && kids.length <= 1) {
        current = kids[0];
        continue;
      }
      const li = h("li", { class: `msg role-${m.role}` }, h("p", { class: "who" }, `${m.role}${m.is_thought === true ? " (thinking)" : ""}`, m.created_at ? ` · ${fmtDate(m.created_at)}` : ""), h("div", { class: "text" }, messageText(m)));
      if (kids.length > 1) {
        const idx: number = choice.get(current) ?? kids.length - 1;
        const at = current;
        li.append(
          h("div", { class: "fork", role: "group", "aria-label": "Branches" },
            h("span", {}, `Branch ${idx + 1} of ${kids.length}`),
            h("button", { type: "button", disabled: idx === 0, "aria-label": "Previous branch", onclick: () => { choice.set(at, idx - 1); draw(); } }, "◀"),
            h("button", { type: "button", disabled: idx === kids.length - 1, "aria-label": "Next branch", onclick: () => { choice.set(at, idx + 1); draw(); } }, "▶"),
          ),
        );
        current = kids[idx];
      } else current = kids[0];
      thread.append(li);
    }
  };
  draw();
  const mems = derived.memories as Json[];
  paint(
    doc.title || "Conversation",
    h("p", {}, `${doc.provider?.name ?? ""} · ${counted(messages.length, "message")} · created ${fmtDate(doc.temporal?.created_at)}`),
    h("section", { "aria-labelledby": "h-derived" }, h("h2", { id: "h-derived" }, `Memories from this conversation (${derived.total})`), mems.length ? memoryTable(mems, "Memories from this conversation") : h("p", {}, "None.")),
    h("section", { "aria-labelledby": "h-thread" }, h("h2", { id: "h-thread" }, "Messages"), thread),
  );
}

// ---------------------------------------------------------------------------------------
// Graph

/** Below this width (px) the graph is laid out at the screen's own scale, with fewer labels,
 * and a tap selects a memory before a second tap opens it (a phone has no hover). */
const NARROW_GRAPH = 600;

/** Which labels to show: the best-connected memories first, each label kept only where it
 * overlaps no label kept before it, no other memory's dot, and stays inside the picture — on
 * the side of its dot it prefers, else on the other. */
function placeLabels(svg: SVGSVGElement, order: SVGGraphicsElement[], dots: DOMRect[], width: number): void {
  const kept: DOMRect[] = [];
  const overlaps = (a: DOMRect, b: DOMRect): boolean =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  const fits = (text: SVGGraphicsElement, own: number): DOMRect | null => {
    const box = text.getBBox();
    const pad = new DOMRect(box.x - 2, box.y - 1, box.width + 4, box.height + 2);
    const clear = pad.x >= 0 && pad.x + pad.width <= width && !kept.some((k) => overlaps(k, pad)) &&
      !dots.some((d, i) => i !== own && overlaps(d, pad));
    return clear ? pad : null;
  };
  order.forEach((text) => {
    const own = Number(text.dataset.node);
    const dot = dots[own];
    let place = fits(text, own);
    if (!place) {
      const x = text.getAttribute("x")!, anchor = text.getAttribute("text-anchor") ?? "start";
      text.setAttribute("x", String(anchor === "end" ? dot.right + 3 : dot.left - 3));
      text.setAttribute("text-anchor", anchor === "end" ? "start" : "end");
      place = fits(text, own);
      if (!place) { // shown only when pointed at: on the side it preferred
        text.setAttribute("x", x);
        text.setAttribute("text-anchor", anchor);
      }
    }
    if (place) kept.push(place);
    else text.classList.add("quiet");
  });
  svg.dataset.labels = String(kept.length);
}

async function graphView(): Promise<void> {
  const paint = painter();
  const g = await get<Json>("/v1/graph?limit=300");
  const nodes = g.nodes as Json[];
  const edges = g.edges as Json[];
  if (!nodes.length) {
    paint("Graph", h("p", {}, "No relations yet. Relate memories from a memory's page (Correct → Add a relation)."));
    return;
  }
  // On a narrow screen the picture is drawn at the screen's own scale (a label's 13 px are 13
  // px), taller than wide; on a wide one at 800 × 520, scaled to the page.
  const wide = room() - 2; // the frame's border
  const narrow = wide < NARROW_GRAPH;
  const W = narrow ? Math.max(280, Math.floor(wide)) : 800;
  const H = narrow ? Math.round(W * 1.25) : 520;
  const scale = W / 800;
  // A small force layout, run to rest before drawing.
  const pos = new Map<string, { x: number; y: number }>();
  nodes.forEach((n, i) => {
    const a = (2 * Math.PI * i) / nodes.length;
    pos.set(n.id, { x: W / 2 + (W / 3) * Math.cos(a), y: H / 2 + (H / 3) * Math.sin(a) });
  });
  const push = 60000 * scale * scale, rest = 140 * Math.max(scale, 0.6), margin = narrow ? 14 : 30;
  for (let step = 0; step < 200; step++) {
    const force = new Map<string, { x: number; y: number }>(nodes.map((n) => [n.id, { x: 0, y: 0 }]));
    for (const a of nodes) for (const b of nodes) {
      if (a === b) continue;
      const pa = pos.get(a.id)!, pb = pos.get(b.id)!;
      const dx = pa.x - pb.x, dy = pa.y - pb.y, d2 = Math.max(dx * dx + dy * dy, 1);
      const f = push / d2;
      force.get(a.id)!.x += (dx / Math.sqrt(d2)) * f;
      force.get(a.id)!.y += (dy / Math.sqrt(d2)) * f;
    }
    for (const e of edges) {
      const pa = pos.get(e.from), pb = pos.get(e.to);
      if (!pa || !pb) continue;
      // A spring whose length at rest is `rest`.
      const dx = pb.x - pa.x, dy = pb.y - pa.y, d = Math.max(Math.sqrt(dx * dx + dy * dy), 1);
      const k = ((d - rest) * 0.05) / d;
      force.get(e.from)!.x += dx * k; force.get(e.from)!.y += dy * k;
      force.get(e.to)!.x -= dx * k; force.get(e.to)!.y -= dy * k;
    }
    for (const n of nodes) {
      const p = pos.get(n.id)!, f = force.get(n.id)!;
      p.x = Math.min(W - margin, Math.max(margin, p.x + Math.max(-10, Math.min(10, f.x)) + (W / 2 - p.x) * 0.002));
      p.y = Math.min(H - margin, Math.max(margin, p.y + Math.max(-10, Math.min(10, f.y)) + (H / 2 - p.y) * 0.002));
    }
  }
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: narrow ? "graph narrow" : "graph", role: "group", "aria-label": `Relation graph: ${counted(nodes.length, "memory", "memories")}, ${counted(edges.length, "relation")}` }) as SVGSVGElement;
  for (const e of edges) {
    const pa = pos.get(e.from), pb = pos.get(e.to);
    if (!pa || !pb) continue;
    svg.append(s("line", { x1: pa.x, y1: pa.y, x2: pb.x, y2: pb.y, class: `edge ${e.type}` }, s("title", {}, e.type)));
  }
  const label = (id: string): string => nodes.find((n) => n.id === id)?.label ?? id;
  const hint = narrow
    ? "Tap a memory to see it here; tap it again to open it."
    : "Select a memory to see it here; Enter opens it.";
  const detail = h("div", { id: "graph-focus", class: "graph-focus", "aria-live": "polite" }, h("p", {}, hint));
  const degree = new Map<string, number>();
  for (const e of edges) for (const id of [e.from, e.to]) degree.set(id, (degree.get(id) ?? 0) + 1);
  const longest = narrow ? 22 : 28;
  const texts: SVGGraphicsElement[] = [];
  const dots: DOMRect[] = [];
  let selected: Element | null = null;
  nodes.forEach((n, index) => {
    const p = pos.get(n.id)!;
    const href = `#/memory/${encodeURIComponent(n.id)}`;
    const r = narrow ? 8 : 9;
    const text = s("text", p.x > W * 0.6 ? { x: p.x - r - 3, y: p.y + 4, "text-anchor": "end" } : { x: p.x + r + 3, y: p.y + 4 }, clip(n.label, longest)) as SVGGraphicsElement;
    text.dataset.node = String(index);
    // Labels on the right half run leftwards, so none leaves the picture.
    const link = s("a", { href, class: "node", "aria-label": `${n.type}: ${n.label}` },
      s("circle", { cx: p.x, cy: p.y, r, class: `t-${n.type} s-${n.status}` }),
      text,
    );
    texts.push(text);
    dots.push(new DOMRect(p.x - r, p.y - r, 2 * r, 2 * r));
    const tell = (): void => {
      const related = edges.filter((e) => e.from === n.id || e.to === n.id).map((e) =>
        h("li", {}, e.from === n.id ? `${e.type} → ` : `← ${e.type} `, h("a", { href: `#/memory/${encodeURIComponent(e.from === n.id ? e.to : e.from)}` }, label(e.from === n.id ? e.to : e.from))));
      detail.replaceChildren(h("p", {}, h("span", { class: "badge" }, n.type), " ", h("span", { class: `badge ${n.status}` }, n.status), " ", h("a", { href }, n.label)));
      if (related.length) detail.append(h("ul", { class: "graph-related" }, ...related));
    };
    const select = (): void => {
      selected?.classList.remove("selected");
      selected = link;
      link.classList.add("selected");
      svg.append(link); // drawn last: its label above the others
      tell();
    };
    link.addEventListener("focus", tell);
    link.addEventListener("mouseenter", tell);
    link.addEventListener("click", (event) => {
      // No hover on a phone: the first tap shows the memory, the second opens it.
      if (narrow && selected !== link) {
        event.preventDefault();
        select();
      }
    });
    svg.append(link);
  });
  const list = h("details", narrow ? { open: true } : {}, h("summary", {}, "The relations as a list"),
    h("div", { class: "table-wrap" }, h("table", { class: "stacked relations" }, h("caption", { class: "sr-only" }, "Relations"), h("thead", {}, h("tr", {}, ...["From", "Relation", "To"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, ...edges.map((e) =>
        h("tr", {}, h("td", { class: "wrap" }, h("a", { href: `#/memory/${encodeURIComponent(e.from)}` }, label(e.from))), h("td", { class: "relation" }, e.type), h("td", { class: "wrap" }, h("a", { href: `#/memory/${encodeURIComponent(e.to)}` }, label(e.to)))),
      )))));
  paint("Graph", h("p", {}, `${counted(nodes.length, "memory", "memories")}, ${counted(g.total_edges, "relation")}${g.truncated ? ` (the first ${edges.length} shown)` : ""}.`), detail, h("div", { class: "graph-wrap" }, svg), list);
  if (svg.isConnected) {
    const order = [...texts].sort((a, b) => {
      const na = nodes[Number(a.dataset.node)], nb = nodes[Number(b.dataset.node)];
      return (degree.get(nb.id) ?? 0) - (degree.get(na.id) ?? 0);
    });
    placeLabels(svg, order, dots, W);
  }
}

// ---------------------------------------------------------------------------------------
// Time: charts of counts and the timeline

function barChart(title: string, id: string, counts: Record<string, number>): HTMLElement {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  const max = Math.max(1, ...entries.map(([, n]) => n));
  const list = h("ul", { class: "bars", "aria-labelledby": id });
  for (const [k, n] of entries) {
    const bar = h("span", { class: "bar" });
    bar.style.width = `${(100 * n) / max}%`;
    list.append(h("li", {}, h("span", { class: "bar-label" }, k), h("span", { class: "bar-track" }, bar), h("span", { class: "bar-n" }, n.toLocaleString("en"))));
  }
  return h("section", { class: "card" }, h("h2", { id }, title), entries.length ? list : h("p", {}, "Nothing yet."));
}

const PALETTE = ["#1f5fbf", "#b3461f", "#2e7d32", "#7b3fa0", "#8a6d00", "#00738a", "#a0284f", "#4d4d4d", "#5b6f00", "#6b4b2a", "#274b8a"];

/** The width (px) the view's content has: `main`'s, less its padding. */
function room(): number {
  const style = getComputedStyle(main);
  return main.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
}

function timelineChart(title: string, id: string, months: string[], series: Record<string, number[]>): HTMLElement {
  const keys = Object.keys(series);
  // On a narrow screen drawn at the screen's own scale (inside a card: 2 × 1 rem and its
  // border), with fewer month labels, so they stay readable.
  const narrow = room() < NARROW_GRAPH;
  const W = narrow ? Math.max(240, Math.floor(room() - 34)) : 760, H = narrow ? 200 : 240, left = 40, bottom = 30;
  const labels = narrow ? 4 : 12;
  const totals = months.map((_, i) => keys.reduce((sum, k) => sum + series[k][i], 0));
  const max = Math.max(1, ...totals);
  const bw = Math.min(48, Math.max(2, (W - left - 10) / Math.max(1, months.length) - 2));
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: narrow ? "chart narrow" : "chart", role: "img", "aria-labelledby": id });
  svg.append(s("line", { x1: left, y1: H - bottom, x2: W, y2: H - bottom, class: "axis" }));
  svg.append(s("text", { x: 2, y: 14, class: "tick" }, String(max)));
  months.forEach((month, i) => {
    let y = H - bottom;
    const x = left + i * (bw + 2);
    keys.forEach((k, j) => {
      const n = series[k][i];
      if (!n) return;
      const hgt = ((H - bottom - 10) * n) / max;
      y -= hgt;
      svg.append(s("rect", { x, y, width: bw, height: hgt, fill: PALETTE[j % PALETTE.length] }, s("title", {}, `${month} · ${k}: ${n}`)));
    });
    if (months.length <= labels || i % Math.ceil(months.length / labels) === 0) {
      svg.append(s("text", { x, y: H - 10, class: "tick" }, month));
    }
  });
  const legend = h("ul", { class: "legend" }, ...keys.map((k, j) => {
    const sw = h("span", { class: "swatch" });
    sw.style.background = PALETTE[j % PALETTE.length];
    return h("li", {}, sw, k);
  }));
  // One column per type or platform: on a phone it scrolls, so it takes the keyboard's focus.
  const table = h("details", {}, h("summary", {}, `${title} as a table`),
    h("div", { class: "table-wrap", tabindex: 0, role: "region", "aria-label": `${title} as a table` }, h("table", {}, h("caption", { class: "sr-only" }, title), h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Month"), ...keys.map((k) => h("th", { scope: "col" }, k)))),
      h("tbody", {}, ...months.map((mo, i) => h("tr", {}, h("th", { scope: "row" }, mo), ...keys.map((k) => h("td", { class: "num" }, series[k][i]))))))));
  return h("section", { class: "card" }, h("h2", { id }, title), months.length ? [svg, legend, table] : h("p", {}, "Nothing yet."));
}

async function timeView(): Promise<void> {
  const paint = painter();
  const [stats, tl] = await Promise.all([get<Json>("/v1/stats"), get<Json>("/v1/timeline")]);
  paint(
    "Time",
    h("p", {}, `${counted(stats.memories, "memory", "memories")}, ${counted(stats.conversations, "conversation")}, ${counted(stats.relations, "relation")}.`),
    h("div", { class: "grid" }, barChart("Memories by type", "c-type", stats.by_type), barChart("Memories by platform", "c-platform", stats.by_platform), barChart("Memories by status", "c-status", stats.by_status)),
    timelineChart("Created per month, by type", "t-type", tl.months, tl.by_type),
    timelineChart("Created per month, by platform", "t-platform", tl.months, tl.by_platform),
  );
}

// ---------------------------------------------------------------------------------------
// Review: changes background extraction proposed for DNA-class memories (AIMEM §5.1)

function memoryLink(m: Json): HTMLElement {
  return h("a", { href: `#/memory/${encodeURIComponent(m.id)}` }, markdownLine(m.content, 240));
}

async function reviewView(): Promise<void> {
  const paint = painter();
  const found = (await get<Json>("/v1/review")).proposals as Json[];
  const out = h("div");
  const decide = async (verb: "accept" | "reject", p: Json): Promise<void> => {
    try {
      await api("POST", `/v1/review/${encodeURIComponent(p.memory.id)}/${verb}`);
      await show(); // the queue again, then the outcome (showing a view clears the status line)
      say(verb === "accept" ? "Accepted: the change is made." : "Rejected: the proposed memory is retracted.");
    } catch (e) {
      out.replaceChildren(errorBox(e));
    }
  };
  const cards = found.map((p, i) => {
    const id = `p-${i}`;
    const verb = p.proposes === "history" ? "Is older than" : "Would replace";
    const short = clip(p.memory.content, 60);
    return h(
      "li",
      { class: "card proposal" },
      h("h2", { id }, memoryLink(p.memory)),
      dl([
        [verb, (p.targets as Json[]).map((t) => h("span", { class: "target" }, memoryLink(t)))],
        ["Why", p.reason || "—"],
        ["Proposed", `${fmtDate(p.proposed_at)} by ${p.proposed_by}`],
      ]),
      h("div", { class: "actions", role: "group", "aria-label": `Decide: ${short}` },
        h("button", { type: "button", "aria-label": `Accept: ${short}`, onclick: () => void decide("accept", p) }, "Accept"),
        h("button", { type: "button", class: "danger", "aria-label": `Reject: ${short}`, onclick: () => void decide("reject", p) }, "Reject"),
      ),
    );
  });
  paint(
    "Review",
    h("p", {}, "Changes background extraction proposed for identities, preferences and instructions. Accepting makes the change; rejecting retracts the proposed memory (it is kept)."),
    out,
    found.length ? h("ul", { class: "proposals", id: "proposals" }, ...cards) : h("p", { id: "no-proposals" }, "No proposed changes to review."),
  );
}

// ---------------------------------------------------------------------------------------
// Audit

function details(d: unknown): string {
  if (!d || typeof d !== "object") return "";
  return Object.entries(d as Json)
    .filter(([, v]) => v !== null && typeof v !== "object")
    .map(([k, v]) => `${k}: ${v}`)
    .join(", ");
}

async function auditView(): Promise<void> {
  const paint = painter();
  const memory = route().params.get("memory") ?? "";
  const log = await get<Json>("/v1/audit" + query({ memory_id: memory, limit: 500 }));
  const entries = (log.entries as Json[]).slice().reverse();
  const rows = entries.map((e) =>
    h("tr", {}, h("td", { class: "num" }, e.seq), h("td", { class: "when" }, fmtDate(e.at)), h("td", {}, e.actor), h("td", {}, e.action), h("td", { class: "wrap" }, details(e.details)),
      h("td", { class: "wrap" }, e.memory_id ? h("a", { href: `#/memory/${encodeURIComponent(e.memory_id)}` }, e.memory_id) : "—")),
  );
  paint(
    memory ? "Audit of one memory" : "Audit",
    h("p", {}, "Every change, newest first. The log keeps ids and hashes, never content."),
    memory ? h("p", {}, h("a", { href: "#/audit" }, "The whole log")) : null,
    h("div", { class: "table-wrap" }, h("table", { class: "stacked" }, h("caption", { class: "sr-only" }, "Audit log"), h("thead", {}, h("tr", {}, ...["#", "When", "Who", "Action", "Details", "Memory"].map((t) => h("th", { scope: "col" }, t)))), h("tbody", {}, ...rows))),
  );
}

// ---------------------------------------------------------------------------------------
// Move: upload, download, texts for assistants

function summaryOf(body: Json): HTMLElement {
  const parts: Json[] = body.parts ?? [body];
  const list = h("ul", { id: "import-summary" });
  for (const p of parts) {
    if (p.conversations && p.memories && typeof p.memories === "object") {
      list.append(h("li", {}, `${p.importer}: ${counted(p.conversations.new, "new conversation")} (${p.conversations.updated} updated), ${counted(p.messages.new, "new message")}, ${counted(p.memories.new, "new memory", "new memories")} (${p.memories.reinforced} reinforced).`));
      for (const w of p.warnings ?? []) list.append(h("li", { class: "note" }, w));
    } else {
      list.append(h("li", {}, Object.entries(p).filter(([, v]) => typeof v !== "object").map(([k, v]) => `${k}: ${v}`).join(" · ")));
    }
  }
  return list;
}

/** Save a fetched file under the name the server gave it (Content-Disposition). */
function saveBlob(blob: Blob, disposition: string | null, fallback: string): void {
  const name = /filename="([^"]+)"/.exec(disposition ?? "")?.[1] ?? fallback;
  const url = URL.createObjectURL(blob);
  const a = h("a", { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

// A signed and/or age-encrypted PAM export (PAM §18, §21.1). The passphrase or recipient
// goes in a POST body, never in an address.
function protectedExport(): HTMLElement {
  const sign = h("input", { id: "p-sign", name: "sign", type: "checkbox" }) as HTMLInputElement;
  const how = select("p-encrypt", ["none", "passphrase", "recipient"], "none");
  for (const [v, label] of [["none", "Not encrypted"], ["passphrase", "With a passphrase"], ["recipient", "To an age recipient (age1…)"]]) {
    how.querySelector(`option[value="${v}"]`)!.textContent = label;
  }
  const secret = input("p-passphrase", "", { type: "password", autocomplete: "new-password" });
  const recipient = input("p-recipient", "", { autocomplete: "off", spellcheck: "false", placeholder: "age1…" });
  const secretField = field("Passphrase", secret);
  const recipientField = field("age recipient", recipient);
  const sync = (): void => {
    secretField.hidden = how.value !== "passphrase";
    recipientField.hidden = how.value !== "recipient";
    secret.required = how.value === "passphrase";
    recipient.required = how.value === "recipient";
  };
  how.addEventListener("change", sync);
  sync();
  const out = h("div", { "aria-live": "polite" });
  const button = h("button", { type: "submit" }, "Download PAM export") as HTMLButtonElement;
  return h(
    "form",
    { id: "protected-export", "aria-labelledby": "h-protect", onsubmit: async (e: Event) => {
      e.preventDefault();
      const body: Json = { sign: sign.checked };
      if (how.value === "passphrase") body.encrypt = { passphrase: secret.value };
      if (how.value === "recipient") body.encrypt = { recipients: [recipient.value.trim()] };
      button.disabled = true;
      out.replaceChildren(h("p", {}, "Exporting…"));
      try {
        const response = await fetch("/v1/pam/export", {
          method: "POST",
          credentials: "same-origin",
          headers: headers("POST", { "Content-Type": "application/json" }),
          body: JSON.stringify(body),
        });
        if (!response.ok) throw await problemOf(response);
        saveBlob(await response.blob(), response.headers.get("Content-Disposition"), "pam-export.zip");
        const what = [response.headers.get("PAM-Signed") === "true" ? "signed" : "", body.encrypt ? "encrypted with age" : ""].filter(Boolean).join(" and ");
        out.replaceChildren(h("p", { id: "protected-done" }, `Exported${what ? `, ${what}` : ""}.`));
        secret.value = "";
      } catch (err) {
        out.replaceChildren(errorBox(err));
      } finally {
        button.disabled = false;
      }
    } },
    h("h3", { id: "h-protect" }, "Signed or encrypted PAM export"),
    h("div", { class: "check" }, sign, h("label", { for: "p-sign" }, "Sign with the vault's key (PAM §18)")),
    field("Encryption (age)", how),
    secretField,
    recipientField,
    button,
    out,
  );
}

function moveView(): void {
  const file = h("input", { id: "u-file", name: "file", type: "file", required: true }) as HTMLInputElement;
  const kind = select("u-kind", ["provider", "pam", "aimem"], "provider");
  for (const [v, label] of [["provider", "A provider's export (ChatGPT, Claude, Gemini, Copilot, Grok)"], ["pam", "A PAM export (zip or memory-store.json)"], ["aimem", "An AIMEM bundle"]]) {
    kind.querySelector(`option[value="${v}"]`)!.textContent = label;
  }
  const bar = h("progress", { id: "u-progress", max: 100, value: 0, "aria-label": "Upload progress" }) as HTMLProgressElement;
  const out = h("div", { "aria-live": "polite" });
  const form = h(
    "form",
    { class: "card", "aria-labelledby": "h-up", onsubmit: async (e: Event) => {
      e.preventDefault();
      const f = file.files?.[0];
      if (!f) return;
      const path = kind.value === "pam" ? "/v1/pam/import" : kind.value === "aimem" ? "/v1/brain/import" : `/v1/import?filename=${encodeURIComponent(f.name)}`;
      bar.value = 0;
      out.replaceChildren(h("p", {}, `Uploading ${f.name}…`));
      try {
        const body = await upload<Json>(path, f, (x) => { bar.value = Math.round(x * 100); if (x >= 1) out.replaceChildren(h("p", {}, "Importing…")); });
        bar.value = 100;
        out.replaceChildren(h("h3", {}, "Imported"), summaryOf(body));
        say("Import finished.");
      } catch (err) {
        out.replaceChildren(errorBox(err));
      }
    } },
    h("h2", { id: "h-up" }, "Import"),
    field("What it is", kind),
    field("File", file),
    h("button", { type: "submit" }, "Upload and import"),
    bar,
    out,
  );
  const downloads = h(
    "section",
    { class: "card", "aria-labelledby": "h-down" },
    h("h2", { id: "h-down" }, "Export"),
    h("ul", {},
      h("li", {}, h("a", { href: "/v1/pam/export", download: "", id: "dl-pam" }, "PAM export (zip)"), " — memory-store.json, conversations and embeddings (PAM v1.0)."),
      h("li", {}, h("a", { href: "/v1/brain/export", download: "memvault.aimem.json", id: "dl-aimem" }, "AIMEM bundle"), " — signed when the vault has a signing key."),
    ),
    protectedExport(),
  );
  const textsOut = h("div");
  const target = select("x-target", ["system-prompt", "chatgpt", "claude", "gemini"], "chatgpt");
  const texts = h(
    "form",
    { class: "card", "aria-labelledby": "h-texts", onsubmit: async (e: Event) => {
      e.preventDefault();
      try {
        const r = await get<Json>(`/v1/export/${target.value}`);
        textsOut.replaceChildren(
          h("p", {}, `${counted(r.included, "memory", "memories")} included${Object.keys(r.left_out ?? {}).length ? `; left out: ${Object.entries(r.left_out).map(([k, v]) => `${v} ${k}`).join(", ")}` : ""}.`),
          ...(r.texts as Json[]).map((t, i) => {
            const area = h("textarea", { id: `x-text-${i}`, readonly: true, rows: 8 }, t.text) as HTMLTextAreaElement;
            return h("div", { class: "field" },
              h("label", { for: `x-text-${i}` }, `${t.title} (${t.characters}${t.limit ? ` of ${t.limit}` : ""} characters)`),
              area,
              h("button", { type: "button", onclick: async () => {
                try { await navigator.clipboard.writeText(area.value); say("Copied."); }
                catch { area.select(); say("Selected: press Ctrl+C to copy."); }
              } }, `Copy ${t.title}`),
            );
          }),
        );
      } catch (err) {
        textsOut.replaceChildren(errorBox(err));
      }
    } },
    h("h2", { id: "h-texts" }, "Texts for assistants"),
    field("Assistant", target),
    h("button", { type: "submit" }, "Make the texts"),
    textsOut,
  );
  render("Move", form, downloads, texts);
}

// ---------------------------------------------------------------------------------------
// Erase everything

const CONFIRM = "erase everything";

function eraseView(): void {
  const typed = input("x-confirm", "", { autocomplete: "off", "aria-describedby": "x-help" });
  const button = h("button", { type: "submit", class: "danger", disabled: true }, "Erase everything") as HTMLButtonElement;
  typed.addEventListener("input", () => { button.disabled = typed.value !== CONFIRM; });
  const out = h("div", { "aria-live": "polite" });
  const form = h(
    "form",
    { class: "card danger-zone", onsubmit: async (e: Event) => {
      e.preventDefault();
      if (typed.value !== CONFIRM) return;
      if (!window.confirm("Erase every memory and conversation in this vault for good?")) return;
      try {
        const r = await api<Json>("POST", "/v1/erase", { confirm: CONFIRM });
        out.replaceChildren(h("p", { id: "erased" }, `Erased: ${Object.entries(r.erased as Record<string, number>).filter(([, v]) => v > 0).map(([k, v]) => `${v} ${k.replace(/_/g, " ")}`).join(", ")}.`));
        typed.value = "";
        button.disabled = true;
        say("Everything was erased.");
      } catch (err) {
        out.replaceChildren(errorBox(err));
      }
    } },
    h("p", {}, "This deletes every memory, relation, conversation, embedding and search index entry in the vault, for good, and scrubs the file. The audit log keeps that it happened. Export first (Move) if you may want them back."),
    h("div", { class: "field" }, h("label", { for: "x-confirm" }, "Type ", h("strong", {}, CONFIRM), " to confirm"), typed),
    h("p", { id: "x-help", class: "note" }, "The button works once the words match."),
    button,
    out,
  );
  render("Erase everything", form);
}

// ---------------------------------------------------------------------------------------

async function start(s: Session): Promise<void> {
  session = s;
  setSession(s);
  meta = await get<Meta>("/v1/meta");
  buildNav();
  if (location.hash.startsWith("#/signin")) location.hash = "#/memories";
  window.onhashchange = () => void show();
  await show();
}

async function boot(): Promise<void> {
  try {
    await start(await get<Session>("/v1/session"));
  } catch (e) {
    if (e instanceof ApiError && e.problem.status === 401) signInView(location.hash.includes("failed=1"));
    else render("memvault", errorBox(e));
  }
}

void boot();
export { session };
