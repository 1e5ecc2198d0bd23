import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { build, SAMPLE_USER, type TestApp } from '../helper';

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema | JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>
  >;
}

/** Every object schema inside a request body that would accept a field it does not name. */
function openObjects(schema: JsonSchema | undefined, at: string): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const found: string[] = [];
  if (schema.properties && schema.additionalProperties !== false) found.push(at || '(body)');
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    found.push(...openObjects(child, at ? `${at}.${name}` : name));
  }
  const items = Array.isArray(schema.items) ? schema.items : schema.items ? [schema.items] : [];
  for (const item of items) found.push(...openObjects(item, `${at}[]`));
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])])
    found.push(...openObjects(branch, at));
  if (typeof schema.additionalProperties === 'object')
    found.push(...openObjects(schema.additionalProperties, `${at}{}`));
  return found;
}

/**
 * Issue 9 §4: one policy for fields a route does not know, on every route: 400 naming the field
 * (never silently dropped, so a typo in a field name cannot pass for a successful write).
 */
describe('unknown body fields', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await build();
  });
  afterAll(async () => t.close());

  it('every request body in the OpenAPI document is closed to fields it does not name', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const document = response.json() as OpenApiDocument;
    const open: string[] = [];
    let bodies = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const schema = operation.requestBody?.content?.['application/json']?.schema;
        if (!schema) continue;
        bodies += 1;
        for (const where of openObjects(schema, '')) open.push(`${method} ${path}: ${where}`);
      }
    }
    expect(bodies).toBeGreaterThan(15);
    expect(open).toEqual([]);
  });

  it.each([
    ['POST', '/api/comparison/runs', { client: 'ABC', baselineType: 'options', extra: 1 }, 'extra'],
    ['POST', '/api/projects/Aegis/pipelines/1/runs', { appList: ['x'], apps: [] }, 'apps'],
    ['POST', '/api/backups/ABC/restore', { tag: 'backup/ABC/x', force: true }, 'force'],
  ])('%s %s answers 400 naming the unknown field', async (method, url, payload, field) => {
    const response = await t.injectAs(SAMPLE_USER, {
      method: method as 'POST',
      url,
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ field: `body.${field}` });
    expect((response.json() as { message: string }).message).toContain(field);
  });
});
