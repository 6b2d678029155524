/**
 * Just enough XML to write a JUnit report that any parser accepts: escaped text and attributes, and no
 * character XML 1.0 forbids. A learner's output may hold anything — terminal colour codes, NUL, a lone
 * surrogate — so such characters are written as visible `\xNN` escapes rather than dropped silently.
 */

/** Everything outside XML 1.0's Char production (tab, newline, carriage return and the printable planes). */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

function visible(text: string): string {
  return text.replace(NOT_XML_CHAR, (ch) => `\\x${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(2, '0')}`);
}

export function escapeText(text: string): string {
  return visible(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Attribute values keep their line breaks and tabs only as character references (parsers normalise the raw ones away). */
export function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

export type Attributes = Record<string, string | number | undefined>;

export function attributes(attrs: Attributes): string {
  return Object.entries(attrs)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ` ${name}="${escapeAttribute(String(value))}"`)
    .join('');
}

/** `<name attrs/>`, or `<name attrs>children</name>` (children already XML). */
export function element(name: string, attrs: Attributes, children: string | null = null): string {
  return children === null ? `<${name}${attributes(attrs)}/>` : `<${name}${attributes(attrs)}>${children}</${name}>`;
}
