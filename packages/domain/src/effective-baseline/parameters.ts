// Tenant parameters (issue 30 §1, ADR 068): a baseline file names a tenant-specific value by a
// token, `{{aegis:param:NAME}}`, and each client keeps the values in its parameters file. Deploy
// substitutes them (and refuses when one is missing); comparison substitutes them too, so a client
// value equal to its parameter is compliant; promotion turns a tenant's values back into tokens.
import { InputError } from '../errors';

/** A parameter's value: what a baseline property can hold in place of the token. */
export type ParameterValue = string | number | boolean;

/** name → value, as a client's parameters file holds them. */
export type TenantParameters = Readonly<Record<string, ParameterValue>>;

const NAME = '[A-Za-z][A-Za-z0-9_]{0,63}';
const NAME_PATTERN = new RegExp(`^${NAME}$`);
const TOKEN_PREFIX = '{{aegis:param:';

/** A string that is exactly one token: the whole value takes the parameter's type. */
const WHOLE_TOKEN = new RegExp(`^\\{\\{aegis:param:(${NAME})\\}\\}$`);

function tokens(): RegExp {
  return new RegExp(`\\{\\{aegis:param:(${NAME})\\}\\}`, 'g');
}

/** `{{aegis:param:NAME}}`: how a baseline file names a parameter. */
export function parameterToken(name: string): string {
  return `${TOKEN_PREFIX}${name}}}`;
}

/** Why a parameter name is not one, or undefined: a letter, then letters, digits or '_', at most 64. */
export function parameterNameProblem(name: string): string | undefined {
  return NAME_PATTERN.test(name)
    ? undefined
    : 'must start with a letter and hold only letters, digits and _ (at most 64)';
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const isParameterValue = (v: unknown): v is ParameterValue =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/**
 * A client's parameters file read from JSON (`{"parameters": {"name": value}}`); InputError naming
 * the offending entry when a name or value is not one. Values are strings, numbers or booleans.
 */
export function parseTenantParameters(json: unknown, field = 'parameters'): TenantParameters {
  if (json === undefined || json === null) return {};
  const raw = isRecord(json) ? json['parameters'] : undefined;
  if (raw === undefined) return {};
  if (!isRecord(raw)) throw new InputError(`${field} must be an object of name → value`, field);
  const out: Record<string, ParameterValue> = {};
  for (const [name, value] of Object.entries(raw)) {
    const problem = parameterNameProblem(name);
    if (problem) throw new InputError(`${field}.${name}: name ${problem}`, `${field}.${name}`);
    if (!isParameterValue(value)) {
      throw new InputError(
        `${field}.${name} must be a string, a number or true/false`,
        `${field}.${name}`,
      );
    }
    out[name] = value;
  }
  return out;
}

/** The names of the parameters a document (parsed JSON) uses, sorted, each once. */
export function parametersUsed(content: unknown): string[] {
  const names = new Set<string>();
  walkStrings(content, (s) => {
    if (!s.includes(TOKEN_PREFIX)) return;
    for (const m of s.matchAll(tokens())) if (m[1]) names.add(m[1]);
  });
  return [...names].sort();
}

function walkStrings(value: unknown, visit: (s: string) => void): void {
  if (typeof value === 'string') visit(value);
  else if (Array.isArray(value)) for (const v of value) walkStrings(v, visit);
  else if (isRecord(value)) for (const v of Object.values(value)) walkStrings(v, visit);
}

export interface Substituted {
  content: unknown;
  /** names the document uses that the parameters lack, sorted, each once */
  missing: string[];
}

/**
 * The document with every token replaced by its parameter's value. A string that is exactly one
 * token takes the value with its type (a boolean stays a boolean); a token inside a longer string
 * is replaced by the value's text. A token whose parameter is missing is left as it is and named in
 * `missing`. Property names are never touched: only values refer to parameters.
 */
export function substituteParameters(content: unknown, parameters: TenantParameters): Substituted {
  const missing = new Set<string>();
  const lookup = (name: string): ParameterValue | undefined =>
    Object.hasOwn(parameters, name) ? parameters[name] : undefined;
  const visit = (value: unknown): unknown => {
    if (typeof value === 'string') {
      if (!value.includes(TOKEN_PREFIX)) return value;
      const whole = WHOLE_TOKEN.exec(value);
      if (whole?.[1]) {
        const v = lookup(whole[1]);
        if (v === undefined) missing.add(whole[1]);
        return v ?? value;
      }
      return value.replace(tokens(), (token, name: string) => {
        const v = lookup(name);
        if (v === undefined) missing.add(name);
        return v === undefined ? token : String(v);
      });
    }
    if (Array.isArray(value)) return value.map(visit);
    if (isRecord(value)) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visit(v)]));
    }
    return value;
  };
  return { content: visit(content), missing: [...missing].sort() };
}

/** The message a deploy refuses with when a client lacks parameters its baseline uses. */
export function missingParametersMessage(
  clientCode: string,
  missing: readonly { name: string; paths: readonly string[] }[],
): string {
  const list = missing.map((m) => `'${m.name}' (used by ${m.paths.join(', ')})`).join('; ');
  return `${clientCode} has no value for parameter${missing.length === 1 ? '' : 's'} ${list}. Set ${missing.length === 1 ? 'it' : 'them'} on the client's Parameters screen before deploying.`;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Parameterised {
  content: unknown;
  /** the parameters whose values were recognised, sorted, each once */
  recognised: string[];
  /** every value replaced, in document order: where (`a.b[0]`), what it was, and by which parameter */
  substitutions: { path: string; value: string; name: string }[];
}

/**
 * Promotion of a captured policy into the baseline: every string value equal to one of the
 * tenant's string parameters (GUIDs compared without case, as Entra ID does) becomes that
 * parameter's token. Only whole values are replaced, and only string parameters of at least 3
 * characters: a boolean or a short value ('1', 'On') says nothing about the tenant and would turn
 * unrelated settings into parameters.
 */
export function parameteriseDocument(
  content: unknown,
  parameters: TenantParameters,
): Parameterised {
  const byValue = new Map<string, string>();
  for (const [name, value] of Object.entries(parameters).sort(([a], [b]) => a.localeCompare(b))) {
    if (typeof value !== 'string' || value.length < 3) continue;
    const key = GUID.test(value) ? value.toLowerCase() : value;
    if (!byValue.has(key)) byValue.set(key, name);
  }
  const substitutions: Parameterised['substitutions'] = [];
  const visit = (value: unknown, path: string): unknown => {
    if (typeof value === 'string') {
      const name = byValue.get(GUID.test(value) ? value.toLowerCase() : value);
      if (name === undefined) return value;
      substitutions.push({ path, value, name });
      return parameterToken(name);
    }
    if (Array.isArray(value)) return value.map((v, i) => visit(v, `${path}[${i}]`));
    if (isRecord(value)) {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, visit(v, path ? `${path}.${k}` : k)]),
      );
    }
    return value;
  };
  const out = visit(content, '');
  return {
    content: out,
    recognised: [...new Set(substitutions.map((s) => s.name))].sort(),
    substitutions,
  };
}
