// A reader for the part of YAML that compose.yaml uses — block mappings and sequences, plain and
// quoted scalars, flow sequences of scalars, comments — so that a test can check the file's
// structure without a YAML dependency. Anything else (anchors, tags, multi-line scalars, flow
// mappings, tabs) is refused rather than guessed: the file must stay within what this reads.

export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };

export class YamlSubsetError extends Error {
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`);
  }
}

interface Line {
  number: number;
  indent: number;
  text: string;
}

/** The line without its comment (a `#` at the start or after a space, outside quotes). */
function stripComment(raw: string): string {
  let quote: string | null = null;
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i];
    if (quote) {
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '#' && (i === 0 || raw[i - 1] === ' ')) {
      return raw.slice(0, i);
    }
  }
  return raw;
}

function scalar(text: string, line: number): YamlValue {
  const value = text.trim();
  if (value === '' || value === '~' || value === 'null') return null;
  if (/^[|>]/.test(value)) throw new YamlSubsetError(line, 'multi-line scalars are outside the subset');
  if (/^[&*!]/.test(value)) throw new YamlSubsetError(line, 'anchors, aliases and tags are outside the subset');
  if (value.startsWith('{')) throw new YamlSubsetError(line, 'flow mappings are outside the subset');
  if (value.startsWith('"')) {
    if (!value.endsWith('"') || value.length < 2) throw new YamlSubsetError(line, 'unterminated string');
    return JSON.parse(value) as string;
  }
  if (value.startsWith("'")) {
    if (!value.endsWith("'") || value.length < 2) throw new YamlSubsetError(line, 'unterminated string');
    return value.slice(1, -1).replaceAll("''", "'");
  }
  if (value.startsWith('[')) {
    if (!value.endsWith(']')) throw new YamlSubsetError(line, 'unterminated flow sequence');
    const inner = value.slice(1, -1).trim();
    if (inner === '') return [];
    const items: string[] = [];
    let current = '';
    let quote: string | null = null;
    for (const char of inner) {
      if (quote) {
        if (char === quote) quote = null;
      } else if (char === '"' || char === "'") {
        quote = char;
      } else if (char === ',') {
        items.push(current);
        current = '';
        continue;
      } else if (char === '[' || char === '{') {
        throw new YamlSubsetError(line, 'nested flow collections are outside the subset');
      }
      current += char;
    }
    items.push(current);
    return items.map((item) => scalar(item, line));
  }
  if (value === 'true' || value === 'false') return value === 'true';
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
}

/** `key: rest` → [key, rest]; null when the text is not a mapping entry. */
function mappingEntry(text: string, line: number): [string, string] | null {
  const match = /^("[^"]*"|'[^']*'|[^\s"'#][^:]*?):(\s+(.*))?$/.exec(text);
  if (!match) return null;
  const key = scalar(match[1]!, line);
  return [String(key), match[3] ?? ''];
}

export function parseYamlSubset(source: string): YamlValue {
  const lines: Line[] = [];
  source.split('\n').forEach((raw, index) => {
    const number = index + 1;
    if (/^\s*\t/.test(raw)) throw new YamlSubsetError(number, 'tabs are not allowed for indentation');
    const text = stripComment(raw).trimEnd();
    if (text.trim() === '') return;
    if (text.trim() === '---' || text.trim() === '...') throw new YamlSubsetError(number, 'one document only');
    lines.push({ number, indent: text.length - text.trimStart().length, text: text.trim() });
  });
  let position = 0;

  function block(indent: number): YamlValue {
    const first = lines[position];
    if (!first || first.indent < indent) return null;
    return first.text.startsWith('- ') || first.text === '-' ? sequence(first.indent) : mapping(first.indent);
  }

  function mapping(indent: number): { [key: string]: YamlValue } {
    const result: { [key: string]: YamlValue } = {};
    while (position < lines.length) {
      const line = lines[position]!;
      if (line.indent < indent) break;
      if (line.indent > indent) throw new YamlSubsetError(line.number, 'unexpected indentation');
      const entry = mappingEntry(line.text, line.number);
      if (!entry) throw new YamlSubsetError(line.number, `expected "key: value", found "${line.text}"`);
      const [key, rest] = entry;
      if (Object.hasOwn(result, key)) throw new YamlSubsetError(line.number, `duplicate key "${key}"`);
      position += 1;
      if (rest.trim() === '') {
        const next = lines[position];
        // A sequence may sit at the same indentation as its key.
        const nested =
          next && (next.indent > indent || (next.indent === indent && next.text.startsWith('- ')))
            ? block(next.indent)
            : null;
        result[key] = nested;
      } else {
        result[key] = scalar(rest, line.number);
      }
    }
    return result;
  }

  function sequence(indent: number): YamlValue[] {
    const result: YamlValue[] = [];
    while (position < lines.length) {
      const line = lines[position]!;
      if (line.indent !== indent || !(line.text.startsWith('- ') || line.text === '-')) {
        if (line.indent > indent) throw new YamlSubsetError(line.number, 'unexpected indentation');
        break;
      }
      const rest = line.text.slice(1).trim();
      if (rest === '') {
        position += 1;
        result.push(block(indent + 1));
      } else if (mappingEntry(rest, line.number) && !rest.startsWith('"') && !rest.startsWith("'")) {
        // "- key: value" opens a mapping whose keys line up after the dash.
        const inner = indent + line.text.indexOf(rest);
        lines[position] = { number: line.number, indent: inner, text: rest };
        result.push(mapping(inner));
      } else {
        position += 1;
        result.push(scalar(rest, line.number));
      }
    }
    return result;
  }

  const value = block(0);
  if (position < lines.length) throw new YamlSubsetError(lines[position]!.number, 'unexpected content');
  return value;
}
