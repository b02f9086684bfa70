// Markdown memories (Claude's are Markdown sections) as one line of text with inline
// emphasis, for lists. Only text nodes and <strong>/<em>/<code> elements are made: nothing
// in a memory is ever parsed as HTML, and no link a memory names becomes a link.

export type Inline = Node | string;

/** A heading line: `## Stack`, `**Purpose**`, `__Purpose__:`. */
const HEADING = /^(?:#{1,6}\s+(.+?)|\*\*([^*]+)\*\*:?|__([^_]+)__:?)$/;
/** A list item line: `- x`, `* x`, `• x`, `1. x`. */
const ITEM = /^(?:[-*+•]|\d+[.)])\s+(.+)$/;
/** Inline marks: `code`, **strong**, __strong__, *em*, _em_, [text](address). */
const MARK =
  /`([^`]+)`|\*\*([^*]+?)\*\*|(?<![\w])__([^_]+?)__(?![\w])|(?<![\w*])\*([^\s*](?:[^*]*?[^\s*])?)\*(?![\w*])|(?<![\w])_([^\s_](?:[^_]*?[^\s_])?)_(?![\w])|\[([^\]]+)\]\([^)\s]*\)/g;

interface Piece {
  text: string;
  tag?: "strong" | "em" | "code";
}

function inline(line: string, tag?: Piece["tag"]): Piece[] {
  const pieces: Piece[] = [];
  let last = 0;
  for (const m of line.matchAll(MARK)) {
    const at = m.index ?? 0;
    if (at > last) pieces.push({ text: line.slice(last, at), tag });
    if (m[1] !== undefined) pieces.push({ text: m[1], tag: "code" });
    else if (m[2] !== undefined || m[3] !== undefined) pieces.push({ text: (m[2] ?? m[3])!, tag: "strong" });
    else if (m[4] !== undefined || m[5] !== undefined) pieces.push({ text: (m[4] ?? m[5])!, tag: tag ?? "em" });
    else pieces.push({ text: m[6]!, tag });
    last = at + m[0].length;
  }
  if (last < line.length) pieces.push({ text: line.slice(last), tag });
  return pieces;
}

/** The pieces of a memory as one line: headings as "Heading:" (strong), list items joined
 * with "; " (a space after one that ends a sentence), other lines with a space, inline marks
 * kept as emphasis. */
export function foldMarkdown(content: string): Piece[] {
  const out: Piece[] = [];
  let previous = "";
  const ends = () => (out.length ? out[out.length - 1]!.text.slice(-1) : "");
  for (const raw of content.split(/\r?\n/)) {
    const line = raw.trim().replace(/\s+/g, " ");
    if (!line) continue;
    const heading = HEADING.exec(line);
    const item = heading ? null : ITEM.exec(line);
    let kind: string;
    let pieces: Piece[];
    if (heading) {
      kind = "heading";
      pieces = inline((heading[1] ?? heading[2] ?? heading[3])!.replace(/:$/, ""), "strong");
      pieces.push({ text: ":", tag: "strong" });
    } else if (item) {
      kind = "item";
      pieces = inline(item[1]!);
    } else {
      kind = "line";
      pieces = inline(line);
    }
    if (out.length) {
      if (kind === "heading") out.push({ text: (".!?;:".includes(ends()) ? "" : ".") + " " });
      else if (kind === "item" && previous === "item") out.push({ text: ".!?;:".includes(ends()) ? " " : "; " });
      else out.push({ text: " " });
    }
    out.push(...pieces);
    previous = kind;
  }
  return out;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** How many characters `text` has as a reader counts them: an emoji (a flag, a family joined
 * with ZWJ), or a letter with its accents, is one. */
export function characters(text: string): number {
  let n = 0;
  for (const _ of graphemes.segment(text)) n++;
  return n;
}

/** `text` cut to at most `limit` characters (`characters`), the last one an ellipsis when it
 * is cut. A cut by UTF-16 units could keep half of an emoji, which shows as a box. */
export function clip(text: string, limit: number): string {
  if (text.length <= limit) return text; // never more characters than UTF-16 units
  const parts = Array.from(graphemes.segment(text), (g) => g.segment);
  if (parts.length <= limit) return text;
  return parts.slice(0, Math.max(limit - 1, 0)).join("") + "…";
}

/** `content` folded to one line of at most `limit` characters (an ellipsis past it), as
 * text nodes and <strong>/<em>/<code> elements. */
export function markdownLine(content: string, limit: number): Inline[] {
  const nodes: Inline[] = [];
  let left = limit;
  for (const piece of foldMarkdown(content)) {
    if (left <= 0) break;
    const text = clip(piece.text, left);
    left -= characters(text);
    if (piece.tag) {
      const el = document.createElement(piece.tag);
      el.textContent = text;
      nodes.push(el);
    } else {
      nodes.push(text);
    }
  }
  return nodes;
}
