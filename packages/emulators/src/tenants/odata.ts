// The OData query subset Graph answers here: $filter (eq, ne, in, startswith, and, or, not,
// parentheses, `a/b` paths), $select, $top and server-driven paging with $skiptoken.
import type { Json, JsonObject } from '../seed/policies/types';

export class ODataQueryError extends Error {}

type Value = string | number | boolean | null;
type Expr =
  | { kind: 'cmp'; op: 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le'; path: string[]; value: Value }
  | { kind: 'in'; path: string[]; values: Value[] }
  | { kind: 'startswith' | 'endswith'; path: string[]; value: string }
  | { kind: 'and' | 'or'; left: Expr; right: Expr }
  | { kind: 'not'; inner: Expr };

type Token =
  | { t: 'str'; v: string }
  | { t: 'num'; v: number }
  | { t: 'word'; v: string }
  | { t: 'punct'; v: '(' | ')' | ',' };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    if (/\s/.test(c)) {
      i += 1;
    } else if (c === "'") {
      let value = '';
      i += 1;
      for (;;) {
        if (i >= text.length) throw new ODataQueryError('Unterminated string literal');
        if (text.charAt(i) === "'") {
          if (text.charAt(i + 1) === "'") {
            value += "'";
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        value += text.charAt(i);
        i += 1;
      }
      tokens.push({ t: 'str', v: value });
    } else if (c === '(' || c === ')' || c === ',') {
      tokens.push({ t: 'punct', v: c });
      i += 1;
    } else {
      const match = /^[-A-Za-z0-9_./@$:]+/.exec(text.slice(i));
      if (!match) throw new ODataQueryError(`Syntax error at position ${i} in '${text}'.`);
      const word = match[0];
      if (/^-?\d+(\.\d+)?$/.test(word)) tokens.push({ t: 'num', v: Number(word) });
      else tokens.push({ t: 'word', v: word });
      i += word.length;
    }
  }
  return tokens;
}

class Parser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): Expr {
    const expr = this.or();
    if (this.pos < this.tokens.length) throw new ODataQueryError('Unexpected tokens after filter');
    return expr;
  }

  private peekWord(): string | undefined {
    const token = this.tokens[this.pos];
    return token?.t === 'word' ? token.v.toLowerCase() : undefined;
  }

  private expect(v: '(' | ')' | ','): void {
    const token = this.tokens[this.pos];
    if (token?.t !== 'punct' || token.v !== v) throw new ODataQueryError(`Expected '${v}'`);
    this.pos += 1;
  }

  private or(): Expr {
    let left = this.and();
    while (this.peekWord() === 'or') {
      this.pos += 1;
      left = { kind: 'or', left, right: this.and() };
    }
    return left;
  }

  private and(): Expr {
    let left = this.unary();
    while (this.peekWord() === 'and') {
      this.pos += 1;
      left = { kind: 'and', left, right: this.unary() };
    }
    return left;
  }

  private unary(): Expr {
    if (this.peekWord() === 'not') {
      this.pos += 1;
      return { kind: 'not', inner: this.unary() };
    }
    const token = this.tokens[this.pos];
    if (token?.t === 'punct' && token.v === '(') {
      this.pos += 1;
      const inner = this.or();
      this.expect(')');
      return inner;
    }
    const word = this.peekWord();
    if (word === 'startswith' || word === 'endswith') {
      this.pos += 1;
      this.expect('(');
      const path = this.path();
      this.expect(',');
      const value = this.literal();
      this.expect(')');
      if (typeof value !== 'string') throw new ODataQueryError(`${word} needs a string`);
      return { kind: word, path, value };
    }
    const path = this.path();
    const op = this.peekWord();
    if (op === 'in') {
      this.pos += 1;
      this.expect('(');
      const values: Value[] = [this.literal()];
      while (this.tokens[this.pos]?.t === 'punct' && this.tokens[this.pos]?.v === ',') {
        this.pos += 1;
        values.push(this.literal());
      }
      this.expect(')');
      return { kind: 'in', path, values };
    }
    if (op === 'eq' || op === 'ne' || op === 'gt' || op === 'ge' || op === 'lt' || op === 'le') {
      this.pos += 1;
      return { kind: 'cmp', op, path, value: this.literal() };
    }
    throw new ODataQueryError(`Unsupported or invalid query filter clause specified.`);
  }

  private path(): string[] {
    const token = this.tokens[this.pos];
    if (token?.t !== 'word') throw new ODataQueryError('Expected a property name');
    this.pos += 1;
    return token.v.split('/');
  }

  private literal(): Value {
    const token = this.tokens[this.pos];
    this.pos += 1;
    if (token?.t === 'str' || token?.t === 'num') return token.v;
    if (token?.t === 'word') {
      const lower = token.v.toLowerCase();
      if (lower === 'true') return true;
      if (lower === 'false') return false;
      if (lower === 'null') return null;
      // GUIDs and enum members are written unquoted in some filters
      return token.v;
    }
    throw new ODataQueryError('Expected a literal');
  }
}

export function parseFilter(text: string): Expr {
  return new Parser(tokenize(text)).parse();
}

function valueAt(item: JsonObject, path: string[]): Json | undefined {
  let current: Json | undefined = item;
  for (const part of path) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = current[part];
  }
  return current;
}

function same(a: Json | undefined, b: Value): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  return (a ?? null) === b;
}

const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/;

/** Two DateTimeOffset values compare as instants, whatever their precision or offset. */
function comparable(a: Json, b: Value): [string | number, string | number] {
  if (typeof a === 'string' && typeof b === 'string' && DATE_TIME.test(a) && DATE_TIME.test(b)) {
    return [Date.parse(a), Date.parse(b)];
  }
  return [a as unknown as string | number, b as string | number];
}

export function matches(expr: Expr, item: JsonObject): boolean {
  switch (expr.kind) {
    case 'and':
      return matches(expr.left, item) && matches(expr.right, item);
    case 'or':
      return matches(expr.left, item) || matches(expr.right, item);
    case 'not':
      return !matches(expr.inner, item);
    case 'in': {
      const v = valueAt(item, expr.path);
      return expr.values.some((candidate) => same(v, candidate));
    }
    case 'startswith':
    case 'endswith': {
      const v = valueAt(item, expr.path);
      if (typeof v !== 'string') return false;
      const a = v.toLowerCase();
      const b = expr.value.toLowerCase();
      return expr.kind === 'startswith' ? a.startsWith(b) : a.endsWith(b);
    }
    case 'cmp': {
      const v = valueAt(item, expr.path);
      if (expr.op === 'eq') return same(v, expr.value);
      if (expr.op === 'ne') return !same(v, expr.value);
      if (v === undefined || v === null || expr.value === null) return false;
      const [left, right] = comparable(v, expr.value);
      if (expr.op === 'gt') return left > right;
      if (expr.op === 'ge') return left >= right;
      if (expr.op === 'lt') return left < right;
      return left <= right;
    }
  }
}

/** The properties named in `$select` (plus `@odata.type` and `id`, which Graph always keeps). */
export function select(item: JsonObject, selectText: string | undefined): JsonObject {
  if (!selectText) return item;
  const names = selectText
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const out: JsonObject = {};
  for (const key of ['@odata.type', 'id']) if (key in item) out[key] = item[key] ?? null;
  for (const name of names) {
    const key = Object.keys(item).find((k) => k.toLowerCase() === name.toLowerCase());
    if (key) out[key] = item[key] ?? null;
  }
  return out;
}
