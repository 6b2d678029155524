/**
 * A small, strict XML 1.0 parser for the tests: it builds the element tree and throws on anything that is
 * not well-formed — bad nesting, an unquoted or duplicated attribute, a raw `<` or a stray `&`, an unknown
 * entity, a character XML forbids, text outside the root. No DTDs, no namespaces: a JUnit report needs none.
 */

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (character data and references, decoded), children's text excluded. */
  text: string;
}

const NAME = /^[A-Za-z_:][\w.:-]*/;
const CHAR = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

class XmlSyntaxError extends Error {
  constructor(message: string, at: number) {
    super(`not well-formed XML at offset ${at}: ${message}`);
  }
}

function decode(raw: string, at: number, inAttribute: boolean): string {
  if (raw.includes('<')) throw new XmlSyntaxError(`a raw "<" in ${inAttribute ? 'an attribute value' : 'text'}`, at);
  return raw.replace(/&([^;&\s]*);?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) throw new XmlSyntaxError(`a "&" that starts no reference: ${JSON.stringify(whole)}`, at);
    if (ref.startsWith('#x') && /^#x[0-9a-fA-F]+$/.test(ref)) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#') && /^#\d+$/.test(ref)) return String.fromCodePoint(Number(ref.slice(1)));
    const entity = ENTITIES[ref];
    if (entity === undefined) throw new XmlSyntaxError(`unknown entity &${ref};`, at);
    return entity;
  });
}

export function parseXml(xml: string): XmlElement {
  if (!CHAR.test(xml)) throw new XmlSyntaxError('a character XML 1.0 does not allow', [...xml].findIndex((c) => !CHAR.test(c)));
  let i = 0;
  const skipSpace = () => {
    while (i < xml.length && /\s/.test(xml[i]!)) i++;
  };
  const skipMisc = () => {
    for (;;) {
      skipSpace();
      if (xml.startsWith('<!--', i)) {
        const end = xml.indexOf('-->', i + 4);
        if (end === -1) throw new XmlSyntaxError('an unclosed comment', i);
        i = end + 3;
      } else if (xml.startsWith('<?', i)) {
        const end = xml.indexOf('?>', i + 2);
        if (end === -1) throw new XmlSyntaxError('an unclosed processing instruction', i);
        i = end + 2;
      } else return;
    }
  };

  const element = (): XmlElement => {
    if (xml[i] !== '<') throw new XmlSyntaxError('an element was expected', i);
    i++;
    const name = NAME.exec(xml.slice(i))?.[0];
    if (name === undefined) throw new XmlSyntaxError('an element name was expected', i);
    i += name.length;
    const node: XmlElement = { name, attributes: {}, children: [], text: '' };
    for (;;) {
      const before = i;
      skipSpace();
      if (xml.startsWith('/>', i)) {
        i += 2;
        return node;
      }
      if (xml[i] === '>') {
        i++;
        break;
      }
      if (i === before) throw new XmlSyntaxError(`white space was expected between attributes of <${name}>`, i);
      const attribute = NAME.exec(xml.slice(i))?.[0];
      if (attribute === undefined) throw new XmlSyntaxError(`an attribute name was expected in <${name}>`, i);
      i += attribute.length;
      skipSpace();
      if (xml[i] !== '=') throw new XmlSyntaxError(`"=" was expected after ${attribute}`, i);
      i++;
      skipSpace();
      const quote = xml[i];
      if (quote !== '"' && quote !== "'") throw new XmlSyntaxError(`the value of ${attribute} must be quoted`, i);
      const end = xml.indexOf(quote, i + 1);
      if (end === -1) throw new XmlSyntaxError(`an unclosed value of ${attribute}`, i);
      if (Object.hasOwn(node.attributes, attribute)) throw new XmlSyntaxError(`${attribute} appears twice in <${name}>`, i);
      node.attributes[attribute] = decode(xml.slice(i + 1, end), i, true);
      i = end + 1;
    }
    for (;;) {
      if (i >= xml.length) throw new XmlSyntaxError(`<${name}> is never closed`, i);
      if (xml.startsWith('</', i)) {
        i += 2;
        if (!xml.startsWith(name, i)) throw new XmlSyntaxError(`</${name}> was expected`, i);
        i += name.length;
        skipSpace();
        if (xml[i] !== '>') throw new XmlSyntaxError(`">" was expected to close </${name}`, i);
        i++;
        return node;
      }
      if (xml.startsWith('<![CDATA[', i)) {
        const end = xml.indexOf(']]>', i);
        if (end === -1) throw new XmlSyntaxError('an unclosed CDATA section', i);
        node.text += xml.slice(i + 9, end);
        i = end + 3;
      } else if (xml.startsWith('<!--', i) || xml.startsWith('<?', i)) {
        skipMisc();
      } else if (xml[i] === '<') {
        node.children.push(element());
      } else {
        const end = xml.indexOf('<', i);
        const raw = xml.slice(i, end === -1 ? xml.length : end);
        if (raw.includes(']]>')) throw new XmlSyntaxError('"]]>" in text', i);
        node.text += decode(raw, i, false);
        i += raw.length;
      }
    }
  };

  skipMisc();
  const root = element();
  skipMisc();
  if (i !== xml.length) throw new XmlSyntaxError('content after the root element', i);
  return root;
}
