/** Text and attribute values into HTML: the five characters that could change the markup, and nothing else. */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function esc(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
}

/** Text between tags only: `&`, `<` and `>` are all that could change the markup there (a quote cannot). */
export function escText(text: unknown): string {
  return String(text).replace(/[&<>]/g, (ch) => ENTITIES[ch]!);
}
